"""OpenVINO SpaceToDepth (reference/openvino_space_to_depth.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_space_to_depth


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("mode", ("blocks_first", "depth_first"), dims.attr("mode", None))]


ENTRY = OpEntry(schema=openvino_space_to_depth.SCHEMA, error_models={"output": "exact"}, ir_layer="SpaceToDepth",
                coverage=coverage, layout_inputs=(),
                summary="spatial blocks moved into the depth (blocks_first, depth_first)")
