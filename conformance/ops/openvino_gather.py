"""OpenVINO Gather (reference/openvino_gather.py holds the semantics): a copy of data elements, judged exactly;
elements an index outside the text's range reaches are unspecified where the text does not define them."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_gather

ENTRY = OpEntry(schema=openvino_gather.SCHEMA, error_models={"output": "exact"}, ir_layer="Gather",
                layout_inputs=(),
                summary="slices along axis picked by indices, batch_dims (7, 8), negative and zero-filled indices (8)")
