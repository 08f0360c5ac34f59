"""OpenVINO Parameter (reference/openvino_parameter.py holds the semantics): plumbing, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_parameter

ENTRY = OpEntry(schema=openvino_parameter.SCHEMA, error_models={"output": "exact"}, ir_layer="Parameter",
                summary="a model input: the tensor it is fed")
