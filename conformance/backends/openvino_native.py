"""OpenVINO-domain cases (AvgPool-1/14/16, AdaptiveAvgPool-8) built with OpenVINO's Python opset API.

Shared by the ``openvino`` backend (compiles the opset graph directly) and ``openvino-ir`` (which needs the
same attribute reading and the shape OpenVINO infers). Attributes keep the spec's spelling (``exclude-pad``,
``kernel``, ...); anything the opset API cannot express (a missing required attribute, an attribute the
version does not define, a layout) is ``Unsupported`` here: only the IR path can put such a layer in front of
OpenVINO, and it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.backends.base import Support, Unsupported
from conformance.suite.model import CaseInstance

#: op -> version -> the Python opset module implementing it (each creates the node at that version).
OPSETS: dict[str, dict[int, str]] = {
    "AvgPool": {1: "openvino.opset1", 14: "openvino.opset14", 16: "openvino.opset16"},
    "AdaptiveAvgPool": {8: "openvino.opset8"},
}
#: Element types OpenVINO's CPU plugin runs these ops in (float64 included: it computes and returns f64).
FLOAT_TYPES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64"}
INDEX_TYPES = {"int32": "i32", "int64": "i64"}
REQUIRED = ("kernel", "strides", "pads_begin", "pads_end", "exclude-pad")


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


def supports(case: CaseInstance) -> Support:
    """Whether the opset API can build this openvino-domain instance (op, version, dtype, layout, attributes)."""
    versions = OPSETS.get(case.op)
    if case.domain != "openvino" or versions is None:
        return Support.no(f"no OpenVINO opset builder for {case.domain}::{case.op}")
    if case.version not in versions:
        return Support.no(f"{case.op}-{case.version} is not an OpenVINO opset version (known: {sorted(versions)})")
    if case.dtype not in FLOAT_TYPES:
        return Support.no(f"{case.op} takes floating-point data; {case.dtype} is not one of {sorted(FLOAT_TYPES)}")
    if case.layout is not None:
        return Support.no(f"OpenVINO {case.op} is channels-first only; layout {case.layout} has no equivalent")
    return Support.yes()


def avgpool_attrs(case: CaseInstance) -> AvgPoolAttrs:
    """The case's AvgPool attributes as the opset API takes them; Unsupported for what it cannot express."""
    attrs = case.attributes
    missing = [a for a in REQUIRED if a not in attrs]
    if missing:
        raise Unsupported(f"the opset API cannot build AvgPool without required attribute(s) {missing}")
    allowed = {*REQUIRED, "rounding_type", "auto_pad"} | ({"dilations"} if case.version >= 16 else set())
    unknown = sorted(set(attrs) - allowed)
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


def output_size_input(case: CaseInstance, inputs: list[np.ndarray]) -> np.ndarray:
    """AdaptiveAvgPool's second input (spatial output size), kept in its own integer dtype."""
    if len(inputs) != 2:
        raise ValueError(f"AdaptiveAvgPool-8 takes two inputs (data, output_size), got {len(inputs)}")
    size = np.asarray(inputs[1])
    if size.dtype.name not in INDEX_TYPES:
        raise Unsupported(f"output_size of dtype {size.dtype} (the spec allows int32 and int64 only)")
    return size


def build_model(case: CaseInstance, inputs: list[np.ndarray]) -> Any:
    """Parameter -> op -> Result as an ``openvino.Model``; output_size (AdaptiveAvgPool) is a Constant.

    The node's output shape is whatever OpenVINO's shape inference makes of it: the case's claim is never used.
    """
    import importlib

    import openvino

    support = supports(case)
    if not support:
        raise Unsupported(support.reason)
    opset = importlib.import_module(OPSETS[case.op][case.version])
    data_type = getattr(openvino.Type, FLOAT_TYPES[case.dtype])
    param = openvino.opset1.parameter(list(case.input_shapes[0]), data_type, name=case.input_names[0])
    if case.op == "AdaptiveAvgPool":
        if case.attributes:  # the op has no attributes; only the IR path can carry unknown ones
            raise Unsupported(f"the opset API has no AdaptiveAvgPool-8 attribute(s) {sorted(case.attributes)}")
        size = output_size_input(case, inputs)
        node = opset.adaptive_avg_pool(param, openvino.opset1.constant(size))
    else:
        a = avgpool_attrs(case)
        # opset16.avg_pool without dilations builds dilations=[] and the CPU plugin then segfaults at compile
        # (openvino 2026.4.1): pass the spec default (all 1) explicitly.
        ones = [1] * len(a.kernel)
        extra = {"dilations": a.dilations if a.dilations is not None else ones} if case.version >= 16 else {}
        node = opset.avg_pool(
            param, a.strides, a.pads_begin, a.pads_end, a.kernel, a.exclude_pad, a.rounding_type, a.auto_pad, **extra
        )
    built = node.get_type_info().version_id
    expected = OPSETS[case.op][case.version].rsplit(".", 1)[1]
    if built != expected:  # the Python API silently building another version would invalidate the column
        raise RuntimeError(f"openvino built {case.op} from {built}, not {expected}")
    return openvino.Model([node], [param], case.id)


def inferred_shape(case: CaseInstance, inputs: list[np.ndarray]) -> list[int]:
    """The output shape OpenVINO's own shape inference gives (static for every case we build)."""
    model = build_model(case, inputs)
    return [int(d) for d in model.output(0).get_partial_shape().to_shape()]
