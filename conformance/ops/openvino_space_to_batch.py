"""OpenVINO SpaceToBatch (reference/openvino_space_to_batch.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_space_to_batch

ENTRY = OpEntry(schema=openvino_space_to_batch.SCHEMA, error_models={"output": "exact"}, ir_layer="SpaceToBatch",
                layout_inputs=(),
                summary="spatial dims padded and cut into blocks moved into the batch")
