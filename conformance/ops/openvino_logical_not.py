"""OpenVINO LogicalNot (reference/openvino_logical_not.py holds the semantics):
NOT a on booleans, element-wise (boolean).
Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_logical_not

ENTRY = OpEntry(schema=openvino_logical_not.SCHEMA, error_models={"y": "exact"}, ir_layer="LogicalNot",
                summary="NOT a on booleans, element-wise (boolean)")
