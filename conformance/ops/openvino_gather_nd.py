"""OpenVINO GatherND (reference/openvino_gather_nd.py holds the semantics): a copy of data elements, judged exactly;
elements an index outside the text's range reaches are unspecified where the text does not define them."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_gather_nd

ENTRY = OpEntry(schema=openvino_gather_nd.SCHEMA, error_models={"output": "exact"}, ir_layer="GatherND",
                layout_inputs=(),
                summary="slices picked by index tuples, batch_dims (flattened in 5, kept in 8)")
