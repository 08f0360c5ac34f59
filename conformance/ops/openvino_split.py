"""OpenVINO Split (reference/openvino_split.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_split

ENTRY = OpEntry(schema=openvino_split.SCHEMA, error_models={"output": "exact"}, ir_layer="Split",
                layout_inputs=(),
                summary="num_splits equal chunks along axis")
