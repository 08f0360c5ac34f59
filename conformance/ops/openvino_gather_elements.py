"""OpenVINO GatherElements (reference/openvino_gather_elements.py holds the semantics): a copy of data elements,
judged exactly;
elements an index outside the text's range reaches are unspecified where the text does not define them."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_gather_elements

ENTRY = OpEntry(schema=openvino_gather_elements.SCHEMA, error_models={"output": "exact"}, ir_layer="GatherElements",
                layout_inputs=(),
                summary="elements along axis picked by an index tensor of the output's shape")
