"""OpenVINO BevPoolV2 (reference/openvino_bev_pool_v2.py holds the semantics). Judged by the accumulation bound, K
the most terms one BEV cell sums (from the interval table)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bev_pool_v2

ENTRY = OpEntry(schema=openvino_bev_pool_v2.SCHEMA, error_models={"output": "accumulate"}, ir_layer="BevPoolV2",
                layout_inputs=(), summary="depth-weighted scatter-accumulate of camera features into BEV cells")
