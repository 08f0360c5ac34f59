"""OpenVINO ScatterUpdate (reference/openvino_scatter_update.py holds the semantics):
a copy with updates written in, judged
exactly; elements written more than once with differing values are unspecified (the text leaves the order open)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_scatter_update

ENTRY = OpEntry(schema=openvino_scatter_update.SCHEMA, error_models={"output": "exact"}, ir_layer="ScatterUpdate",
                layout_inputs=(), summary="slices along axis replaced by updates")
