"""OpenVINO LogicalXor (reference/openvino_logical_xor.py holds the semantics):
a XOR b on booleans after auto_broadcast.
Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_logical_xor

ENTRY = OpEntry(schema=openvino_logical_xor.SCHEMA, error_models={"y": "exact"}, ir_layer="LogicalXor",
                layout_inputs=(), summary="a XOR b on booleans after auto_broadcast, element-wise")
