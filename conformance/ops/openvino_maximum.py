"""OpenVINO Maximum (reference/openvino_maximum.py holds the semantics), element-wise on two broadcast tensors. Judged:
no arithmetic: one of the inputs.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_maximum

ENTRY = OpEntry(schema=openvino_maximum.SCHEMA, error_models={"y": "exact"}, ir_layer="Maximum", layout_inputs=(),
                summary="max(a, b) after auto_broadcast, element-wise")
