"""OpenVINO Transpose (reference/openvino_transpose.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_transpose

ENTRY = OpEntry(schema=openvino_transpose.SCHEMA, error_models={"output": "exact"}, ir_layer="Transpose",
                layout_inputs=(), summary="the axes permuted (an empty order reverses them)")
