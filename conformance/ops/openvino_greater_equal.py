"""OpenVINO GreaterEqual (reference/openvino_greater_equal.py holds the semantics):
a >= b after auto_broadcast, a boolean.
Judged exact: a comparison has no rounding.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_greater_equal

ENTRY = OpEntry(schema=openvino_greater_equal.SCHEMA, error_models={"y": "exact"}, ir_layer="GreaterEqual",
                layout_inputs=(), summary="a >= b after auto_broadcast, element-wise (boolean)")
