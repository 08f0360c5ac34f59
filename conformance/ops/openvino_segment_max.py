"""OpenVINO SegmentMax-16 (reference/openvino_segment_max.py holds the semantics): the maximum of each segment of
data's first axis, empty segments filled by fill_mode (0 or the type's lowest value), judged exactly."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_segment_max


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("fill_mode", ("ZERO", "LOWEST"), dims.attr("fill_mode", None))]


ENTRY = OpEntry(schema=openvino_segment_max.SCHEMA, error_models={"output": "exact"}, ir_layer="SegmentMax",
                coverage=coverage, layout_inputs=(), summary="the maximum of each segment of the first axis")
