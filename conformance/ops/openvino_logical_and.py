"""OpenVINO LogicalAnd (reference/openvino_logical_and.py holds the semantics):
a AND b on booleans after auto_broadcast.
Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_logical_and

ENTRY = OpEntry(schema=openvino_logical_and.SCHEMA, error_models={"y": "exact"}, ir_layer="LogicalAnd",
                layout_inputs=(), summary="a AND b on booleans after auto_broadcast, element-wise")
