"""OpenVINO ScatterNDUpdate (reference/openvino_scatter_nd_update.py holds the semantics):
a copy with updates written in, judged
exactly; elements written more than once with differing values are unspecified (the text leaves the order open)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_scatter_nd_update

ENTRY = OpEntry(schema=openvino_scatter_nd_update.SCHEMA, error_models={"output": "exact"}, ir_layer="ScatterNDUpdate",
                layout_inputs=(), summary="elements or slices named by index tuples replaced by updates")
