"""OpenVINO Tile (reference/openvino_tile.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_tile

ENTRY = OpEntry(schema=openvino_tile.SCHEMA, error_models={"output": "exact"}, ir_layer="Tile",
                layout_inputs=(),
                summary="data repeated along each axis")
