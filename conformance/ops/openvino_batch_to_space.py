"""OpenVINO BatchToSpace (reference/openvino_batch_to_space.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_batch_to_space

ENTRY = OpEntry(schema=openvino_batch_to_space.SCHEMA, error_models={"output": "exact"}, ir_layer="BatchToSpace",
                layout_inputs=(),
                summary="batch blocks moved into the spatial dims, then cropped")
