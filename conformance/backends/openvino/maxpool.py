"""The OpenVINO MaxPool and AdaptiveMaxPool builders: MaxPool-1, -8 (dilations, index_element_type, axis) and -14
(ceil_torch); AdaptiveMaxPool-8 with its output_size as a Constant.

Attributes keep the spec's spelling. What the opset API cannot express (a missing required attribute, an
attribute the version does not define) is ``Unsupported`` here: the IR path puts such layers in front of
OpenVINO's reader, and it does. Both ops take floating point and integer data (MaxPool: "T: floating point or
integer type"; AdaptiveMaxPool's floating-point-only constraint is the reference's to enforce, so integer data
reaches OpenVINO and a runtime that accepts it is seen accepting it).
"""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.adaptive_avgpool import output_size_input
from conformance.backends.openvino.opset import ELEMENT_TYPES, OpsetBuilder
from conformance.model import CaseInstance


def _ints(attrs: dict, name: str) -> list[int]:
    return [int(v) for v in attrs[name]]


def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    attrs = case.attributes
    schema = ops.entry(case.domain, case.op).schema
    missing = [a for a in schema.required_names(case.version) if a not in attrs]
    if missing:
        raise Unsupported(f"the opset API cannot build MaxPool without required attribute(s) {missing}")
    unknown = sorted(set(attrs) - schema.attribute_names(case.version))
    if unknown:
        raise Unsupported(f"the opset API has no MaxPool-{case.version} attribute(s) {unknown}")
    common = dict(strides=_ints(attrs, "strides"), pads_begin=_ints(attrs, "pads_begin"),
                  pads_end=_ints(attrs, "pads_end"), kernel_shape=_ints(attrs, "kernel"),
                  rounding_type=str(attrs.get("rounding_type", "floor")),
                  auto_pad=str(attrs.get("auto_pad", "explicit")))
    if case.version < schema.since("indices"):  # MaxPool-1: no indices output, no dilations
        return opset.max_pool(inputs[0], **common)
    dilations = _ints(attrs, "dilations") if "dilations" in attrs else [1] * len(common["kernel_shape"])
    return opset.max_pool(inputs[0], dilations=dilations, axis=int(attrs.get("axis", 0)),
                          index_element_type=str(attrs.get("index_element_type", "i64")), **common)


def build_adaptive(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    unknown = sorted(set(case.attributes) - {"index_element_type"})
    if unknown:  # only the IR path can carry attributes the op does not define (the spec example's output_type)
        raise Unsupported(f"the opset API has no AdaptiveMaxPool-8 attribute(s) {unknown}")
    return opset.adaptive_max_pool(inputs[0], inputs[1], str(case.attributes.get("index_element_type", "i64")))


BUILDER = OpsetBuilder(opsets={1: "openvino.opset1", 8: "openvino.opset8", 14: "openvino.opset14"}, build=build,
                       dtypes=dict(ELEMENT_TYPES), dtype_note="takes floating point or integer data")
ADAPTIVE_BUILDER = OpsetBuilder(opsets={8: "openvino.opset8"}, build=build_adaptive, constants=output_size_input,
                                dtypes=dict(ELEMENT_TYPES), dtype_note="takes floating point or integer data")
