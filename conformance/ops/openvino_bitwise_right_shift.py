"""OpenVINO BitwiseRightShift (reference/openvino_bitwise_right_shift.py holds the semantics):
a >> b after auto_broadcast. Judged exact where specified.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bitwise_right_shift

ENTRY = OpEntry(schema=openvino_bitwise_right_shift.SCHEMA, error_models={"y": "exact"}, ir_layer="BitwiseRightShift",
                layout_inputs=(), summary="a >> b after auto_broadcast, element-wise")
