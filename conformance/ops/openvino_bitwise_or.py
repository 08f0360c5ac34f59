"""OpenVINO BitwiseOr (reference/openvino_bitwise_or.py holds the semantics):
a OR b, bit by bit after auto_broadcast. Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bitwise_or

ENTRY = OpEntry(schema=openvino_bitwise_or.SCHEMA, error_models={"y": "exact"}, ir_layer="BitwiseOr",
                layout_inputs=(), summary="a OR b, bit by bit after auto_broadcast")
