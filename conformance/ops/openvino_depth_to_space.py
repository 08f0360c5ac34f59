"""OpenVINO DepthToSpace (reference/openvino_depth_to_space.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_depth_to_space


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("mode", ("blocks_first", "depth_first"), dims.attr("mode", None))]


ENTRY = OpEntry(schema=openvino_depth_to_space.SCHEMA, error_models={"output": "exact"}, ir_layer="DepthToSpace",
                coverage=coverage, layout_inputs=(),
                summary="depth moved into spatial blocks (blocks_first, depth_first)")
