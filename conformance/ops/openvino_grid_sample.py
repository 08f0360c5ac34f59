"""OpenVINO GridSample-9 (reference/openvino_grid_sample.py holds the semantics): the input sampled at normalised
coordinates, judged by the accumulation bound over the taps with the weights' and the coordinate's roundings in the
reference's ``magnitude`` (docs/tolerance.md's sampling rule; nearest a copy). Integer data: the text states no
rounding to the type, so floor or ceil of the exact value (conformance/ops/_rounding.py), widened by ``SLACK``: the
sampling rule's bound of a float32 computation at the cases' integer ranges (|x| <= 128, H and W <= 16,
|grid| <= 1.5, bicubic): (16 + 2 + 2·(4·30 + 2)·1.39 + 2·8·16·2.5·3.03·1.39)·2⁻²⁴·128 < 0.03.
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops._rounding import OpenRounding
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_grid_sample

SLACK = 0.03


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("mode", ("bilinear", "bicubic", "nearest"), dims.attr("mode", "bilinear")),
            dims.Dimension("padding_mode", ("zeros", "border", "reflection"), dims.attr("padding_mode", "zeros")),
            dims.Dimension("align_corners", ("false", "true"), dims.attr("align_corners", False, dims.boolean))]


ENTRY = OpEntry(schema=openvino_grid_sample.SCHEMA,
                error_models={"output": OpenRounding(bound="accumulate", subject="value", slack=SLACK)},
                ir_layer="GridSample", coverage=coverage, layout_inputs=(),
                summary="sampling at normalised coordinates (bilinear, bicubic, nearest; zeros/border/reflection)")
