"""OpenVINO Atan2 (reference/openvino_atan2.py holds the semantics): atan2(y, x) after auto_broadcast.
Judged: atan2's OpenCL bound (6 ULPs) + 1.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_atan2

ENTRY = OpEntry(schema=openvino_atan2.SCHEMA, error_models={"z": Model("ulp", ulps=6 + 1)}, ir_layer="Atan2",
                layout_inputs=(), summary="atan2(y, x) after auto_broadcast, element-wise")
