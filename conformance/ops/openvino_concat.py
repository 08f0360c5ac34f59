"""OpenVINO Concat (reference/openvino_concat.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_concat

ENTRY = OpEntry(schema=openvino_concat.SCHEMA, error_models={"output": "exact"}, ir_layer="Concat",
                layout_inputs=(),
                summary="the inputs joined along axis")
