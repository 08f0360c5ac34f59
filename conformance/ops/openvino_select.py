"""OpenVINO Select (reference/openvino_select.py holds the semantics): then where cond, else elsewhere, after
broadcasting. Judged exact: a selection moves values.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_select

ENTRY = OpEntry(schema=openvino_select.SCHEMA, error_models={"y": "exact"}, ir_layer="Select", layout_inputs=(),
                summary="then where cond is true, else elsewhere, after auto_broadcast")
