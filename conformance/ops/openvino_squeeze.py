"""OpenVINO Squeeze (reference/openvino_squeeze.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_squeeze

ENTRY = OpEntry(schema=openvino_squeeze.SCHEMA, error_models={"output": "exact"}, ir_layer="Squeeze",
                layout_inputs=(), summary="dimensions of 1 removed (all, or the named ones)")
