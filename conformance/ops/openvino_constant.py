"""OpenVINO Constant (reference/openvino_constant.py holds the semantics): plumbing, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_constant

ENTRY = OpEntry(schema=openvino_constant.SCHEMA, error_models={"output": "exact"}, ir_layer="Constant",
                summary="a tensor held in the model's weights")
