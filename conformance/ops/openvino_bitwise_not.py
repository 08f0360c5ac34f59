"""OpenVINO BitwiseNot (reference/openvino_bitwise_not.py holds the semantics):
every bit flipped. Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bitwise_not

ENTRY = OpEntry(schema=openvino_bitwise_not.SCHEMA, error_models={"y": "exact"}, ir_layer="BitwiseNot",
                summary="every bit flipped (boolean: logical not), element-wise")
