"""OpenVINO BitwiseLeftShift (reference/openvino_bitwise_left_shift.py holds the semantics):
a << b after auto_broadcast. Judged exact where specified.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bitwise_left_shift

ENTRY = OpEntry(schema=openvino_bitwise_left_shift.SCHEMA, error_models={"y": "exact"}, ir_layer="BitwiseLeftShift",
                layout_inputs=(), summary="a << b after auto_broadcast, element-wise")
