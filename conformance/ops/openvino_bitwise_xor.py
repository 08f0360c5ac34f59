"""OpenVINO BitwiseXor (reference/openvino_bitwise_xor.py holds the semantics):
a XOR b, bit by bit after auto_broadcast. Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bitwise_xor

ENTRY = OpEntry(schema=openvino_bitwise_xor.SCHEMA, error_models={"y": "exact"}, ir_layer="BitwiseXor",
                layout_inputs=(), summary="a XOR b, bit by bit after auto_broadcast")
