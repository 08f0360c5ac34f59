"""OpenVINO Range-1 and -4 (reference/openvino_range.py holds the semantics): start + i * step below stop; integers
exactly, floats by the accumulation bound at the formula's own magnitude (-1's product and sum, -4's recurrence)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_range

ENTRY = OpEntry(schema=openvino_range.SCHEMA, error_models={"output": "accumulate"}, ir_layer="Range",
                layout_inputs=(), summary="start, start + step, ... below stop (above it for a negative step)")
