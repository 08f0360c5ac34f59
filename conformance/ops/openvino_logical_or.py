"""OpenVINO LogicalOr (reference/openvino_logical_or.py holds the semantics):
a OR b on booleans after auto_broadcast.
Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_logical_or

ENTRY = OpEntry(schema=openvino_logical_or.SCHEMA, error_models={"y": "exact"}, ir_layer="LogicalOr",
                layout_inputs=(), summary="a OR b on booleans after auto_broadcast, element-wise")
