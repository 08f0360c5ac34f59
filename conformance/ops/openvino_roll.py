"""OpenVINO Roll (reference/openvino_roll.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_roll

ENTRY = OpEntry(schema=openvino_roll.SCHEMA, error_models={"output": "exact"}, ir_layer="Roll",
                layout_inputs=(),
                summary="data shifted cyclically along axes")
