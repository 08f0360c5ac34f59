"""OpenVINO Identity (reference/openvino_identity.py holds the semantics): a copy, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_identity

ENTRY = OpEntry(schema=openvino_identity.SCHEMA, error_models={"output": "exact"}, ir_layer="Identity",
                summary="a copy of the input")
