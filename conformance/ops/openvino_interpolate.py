"""OpenVINO Interpolate-4 and -11 (reference/openvino_interpolate.py holds the semantics, from Interpolate-4's Python
text). Judged by the accumulation bound: K the taps one output element sums, at Σ|w|·|x| plus the weights' and the
coordinate's roundings (the reference's ``magnitude``; the sampling rule of docs/tolerance.md); nearest is a copy
(K = 1, M = |x|).
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_interpolate
from conformance_reference._interpolate import COORDINATE_MODES, NEAREST_MODES


def coverage(version: int) -> list[dims.Dimension]:
    modes = openvino_interpolate.MODES + (openvino_interpolate.PILLOW if version >= 11 else ())
    return [dims.Dimension("mode", modes, dims.attr("mode", None)),
            dims.Dimension("shape_calculation_mode", ("sizes", "scales"), dims.attr("shape_calculation_mode", None)),
            dims.Dimension("coordinate_transformation_mode", COORDINATE_MODES,
                           dims.attr("coordinate_transformation_mode", "half_pixel")),
            dims.Dimension("nearest_mode", NEAREST_MODES, lambda i: str(i.attributes.get(
                "nearest_mode", "round_prefer_floor")) if i.attributes.get("mode") == "nearest" else None),
            dims.Dimension("antialias", ("false", "true"), dims.attr("antialias", False, dims.boolean))]


ENTRY = OpEntry(schema=openvino_interpolate.SCHEMA, error_models={"output": "accumulate"}, ir_layer="Interpolate",
                coverage=coverage, layout_inputs=(), summary="interpolation along axes (nearest, linear, cubic)")
