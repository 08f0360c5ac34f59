"""OpenVINO Reverse (reference/openvino_reverse.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reverse


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("mode", ("index", "mask"), dims.attr("mode", None))]


ENTRY = OpEntry(schema=openvino_reverse.SCHEMA, error_models={"output": "exact"}, ir_layer="Reverse",
                coverage=coverage, layout_inputs=(),
                summary="data reversed along the axes named by index or mask")
