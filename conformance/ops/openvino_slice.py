"""OpenVINO Slice-8 (reference/openvino_slice.py holds the semantics): Python slicing along axes, judged exactly."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_slice

ENTRY = OpEntry(schema=openvino_slice.SCHEMA, error_models={"output": "exact"}, ir_layer="Slice", layout_inputs=(),
                summary="data[start:stop:step] along axes (Python's clamping, negative steps)")
