"""OpenVINO Pad (reference/openvino_pad.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_pad


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("pad_mode", ("constant", "edge", "reflect", "symmetric"), dims.attr("pad_mode", None))]


ENTRY = OpEntry(schema=openvino_pad.SCHEMA, error_models={"output": "exact"}, ir_layer="Pad",
                coverage=coverage, layout_inputs=(),
                summary="data extended (or, from 12, cropped) along each axis: constant, edge, reflect, symmetric")
