"""OpenVINO Eye-9 (reference/openvino_eye.py holds the semantics): ones on one diagonal of each matrix of a batch,
judged exactly."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_eye

ENTRY = OpEntry(schema=openvino_eye.SCHEMA, error_models={"output": "exact"}, ir_layer="Eye", layout_inputs=(),
                summary="ones on diagonal i + diagonal_index of batch_shape + [rows, columns] matrices")
