"""OpenVINO BitwiseAnd (reference/openvino_bitwise_and.py holds the semantics):
a AND b, bit by bit after auto_broadcast. Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bitwise_and

ENTRY = OpEntry(schema=openvino_bitwise_and.SCHEMA, error_models={"y": "exact"}, ir_layer="BitwiseAnd",
                layout_inputs=(), summary="a AND b, bit by bit after auto_broadcast")
