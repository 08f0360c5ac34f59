"""OpenVINO Interpolate-1, -4 and -11 (reference/openvino_interpolate.py holds the semantics, -4 and -11 from
Interpolate-4's Python text, -1 the values its page fixes without a formula). Judged by the accumulation bound: K
the taps one output element sums, at Σ|w|·|x| plus the weights' and the coordinate's roundings (the reference's
``magnitude``; the sampling rule of docs/tolerance.md); nearest is a copy (K = 1, M = |x|).
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_interpolate


def coverage(version: int) -> list[dims.Dimension]:
    schema = openvino_interpolate.SCHEMA  # every allowed value as the schema declares it, nothing restated
    if version < 4:
        return [dims.Dimension("mode", schema.attribute("mode", version).values, dims.attr("mode", None)),
                dims.Dimension("align_corners", ("false", "true"), dims.attr("align_corners", True, dims.boolean))]
    modes = openvino_interpolate.MODES + (openvino_interpolate.PILLOW if version >= 11 else ())
    COORDINATE_MODES = schema.attribute("coordinate_transformation_mode", version).values  # noqa: N806
    NEAREST_MODES = schema.attribute("nearest_mode", version).values  # noqa: N806
    return [dims.Dimension("mode", modes, dims.attr("mode", None)),
            dims.Dimension("shape_calculation_mode", ("sizes", "scales"), dims.attr("shape_calculation_mode", None)),
            dims.Dimension("coordinate_transformation_mode", COORDINATE_MODES,
                           dims.attr("coordinate_transformation_mode", "half_pixel")),
            dims.Dimension("nearest_mode", NEAREST_MODES, lambda i: str(i.attributes.get(
                "nearest_mode", "round_prefer_floor")) if i.attributes.get("mode") == "nearest" else None),
            dims.Dimension("antialias", ("false", "true"), dims.attr("antialias", False, dims.boolean))]


ENTRY = OpEntry(schema=openvino_interpolate.SCHEMA, error_models={"output": "accumulate"}, ir_layer="Interpolate",
                coverage=coverage, layout_inputs=(),
                summary="interpolation along axes (nearest, linear, cubic; -1 also area)")
