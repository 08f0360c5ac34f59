"""OpenVINO Minimum (reference/openvino_minimum.py holds the semantics), element-wise on two broadcast tensors. Judged:
no arithmetic: one of the inputs.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_minimum

ENTRY = OpEntry(schema=openvino_minimum.SCHEMA, error_models={"y": "exact"}, ir_layer="Minimum", layout_inputs=(),
                summary="min(a, b) after auto_broadcast, element-wise")
