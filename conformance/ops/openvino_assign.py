"""OpenVINO Assign (reference/openvino_assign.py holds the semantics): a stateful variable's plumbing, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_assign

ENTRY = OpEntry(schema=openvino_assign.SCHEMA, error_models={"output": "exact"}, ir_layer="Assign",
                summary="sets a variable; its output is the value set")
