"""OpenVINO Equal (reference/openvino_equal.py holds the semantics):
a == b after auto_broadcast, a boolean.
Judged exact: a comparison has no rounding.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_equal

ENTRY = OpEntry(schema=openvino_equal.SCHEMA, error_models={"y": "exact"}, ir_layer="Equal",
                layout_inputs=(), summary="a == b after auto_broadcast, element-wise (boolean)")
