"""OpenVINO OneHot-1 and -16 (reference/openvino_one_hot.py holds the semantics): on_value where the index names the
class, off_value elsewhere, judged exactly."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_one_hot

ENTRY = OpEntry(schema=openvino_one_hot.SCHEMA, error_models={"output": "exact"}, ir_layer="OneHot", layout_inputs=(),
                summary="on_value at each index's class along a new axis, off_value elsewhere")
