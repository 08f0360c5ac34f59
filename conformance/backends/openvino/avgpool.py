"""The OpenVINO AvgPool builder: AvgPool-1, -14 (ceil_torch) and -16 (dilations) through the Python opset API.

Attributes keep the spec's spelling (``exclude-pad``, ``kernel``, ...). Anything the opset API cannot express (a
missing required attribute, an attribute the version does not define) is ``Unsupported`` here: only the IR path
can put such a layer in front of OpenVINO, and it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.opset import ELEMENT_TYPES, OpsetBuilder
from conformance.model import CaseInstance


@dataclass(frozen=True)
class AvgPoolAttrs:
    kernel: list[int]
    strides: list[int]
    pads_begin: list[int]
    pads_end: list[int]
    exclude_pad: bool
    rounding_type: str
    auto_pad: str
    dilations: list[int] | None


def avgpool_attrs(case: CaseInstance) -> AvgPoolAttrs:
    """The case's AvgPool attributes as the opset API takes them; Unsupported for what it cannot express."""
    attrs = case.attributes
    schema = ops.entry(case.domain, case.op).schema
    missing = [a for a in schema.required_names(case.version) if a not in attrs]
    if missing:
        raise Unsupported(f"the opset API cannot build AvgPool without required attribute(s) {missing}")
    unknown = sorted(set(attrs) - schema.attribute_names(case.version))
    if unknown:
        raise Unsupported(f"the opset API has no AvgPool-{case.version} attribute(s) {unknown}")
    exclude = attrs["exclude-pad"]
    if isinstance(exclude, str):  # IR spelling ("true"/"false") in a hand-written case
        exclude = exclude.lower() == "true"
    return AvgPoolAttrs(
        kernel=[int(v) for v in attrs["kernel"]], strides=[int(v) for v in attrs["strides"]],
        pads_begin=[int(v) for v in attrs["pads_begin"]], pads_end=[int(v) for v in attrs["pads_end"]],
        exclude_pad=bool(exclude), rounding_type=str(attrs.get("rounding_type", "floor")),
        auto_pad=str(attrs.get("auto_pad", "explicit")),
        dilations=[int(v) for v in attrs["dilations"]] if "dilations" in attrs else None,
    )


def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = avgpool_attrs(case)
    # opset16.avg_pool without dilations builds dilations=[] and the CPU plugin then segfaults at compile
    # (openvino 2026.4.1): pass the spec default (all 1) explicitly.
    ones = [1] * len(a.kernel)
    defines_dilations = "dilations" in ops.entry(case.domain, case.op).attribute_names(case.version)
    extra = {"dilations": a.dilations if a.dilations is not None else ones} if defines_dilations else {}
    return opset.avg_pool(inputs[0], a.strides, a.pads_begin, a.pads_end, a.kernel, a.exclude_pad, a.rounding_type,
                          a.auto_pad, **extra)


def dtypes_at(version: int) -> dict[str, str]:
    """The data types the version's text allows (floating point; integer types too from 14), as element types."""
    allowed = ops.entry("openvino", "AvgPool").schema.supported_dtypes(version)
    return {d: ELEMENT_TYPES[d] for d in allowed if d in ELEMENT_TYPES}


BUILDER = OpsetBuilder(opsets={1: "openvino.opset1", 14: "openvino.opset14", 16: "openvino.opset16"}, build=build,
                       dtypes_at=dtypes_at, dtype_note="takes floating-point data (integer data too from AvgPool-14)")
