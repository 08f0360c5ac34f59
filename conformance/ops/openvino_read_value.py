"""OpenVINO ReadValue (reference/openvino_read_value.py holds the semantics): a stateful variable's plumbing, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_read_value

ENTRY = OpEntry(schema=openvino_read_value.SCHEMA, error_models={"output": "exact"}, ir_layer="ReadValue",
                summary="the variable's value: at the first inference its init_value (or -6's zeros)")
