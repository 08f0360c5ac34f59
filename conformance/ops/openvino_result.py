"""OpenVINO Result (reference/openvino_result.py holds the semantics): plumbing, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_result

ENTRY = OpEntry(schema=openvino_result.SCHEMA, error_models={"output": "exact"}, ir_layer="Result",
                summary="a model output: its input")
