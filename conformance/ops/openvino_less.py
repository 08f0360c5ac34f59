"""OpenVINO Less (reference/openvino_less.py holds the semantics):
a < b after auto_broadcast, a boolean.
Judged exact: a comparison has no rounding.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_less

ENTRY = OpEntry(schema=openvino_less.SCHEMA, error_models={"y": "exact"}, ir_layer="Less",
                layout_inputs=(), summary="a < b after auto_broadcast, element-wise (boolean)")
