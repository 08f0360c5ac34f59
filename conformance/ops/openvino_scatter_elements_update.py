"""OpenVINO ScatterElementsUpdate (reference/openvino_scatter_elements_update.py holds the semantics):
a copy with updates written in, judged
exactly; elements written more than once with differing values are unspecified (the text leaves the order open)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_scatter_elements_update

ENTRY = OpEntry(schema=openvino_scatter_elements_update.SCHEMA, error_models={"output": "exact"},
                ir_layer="ScatterElementsUpdate", layout_inputs=(),
                summary="elements replaced at positions whose axis coordinate indices gives")
