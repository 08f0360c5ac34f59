"""OpenVINO Unsqueeze (reference/openvino_unsqueeze.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_unsqueeze

ENTRY = OpEntry(schema=openvino_unsqueeze.SCHEMA, error_models={"output": "exact"}, ir_layer="Unsqueeze",
                layout_inputs=(), summary="dimensions of 1 inserted at the named output axes")
