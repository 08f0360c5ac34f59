"""OpenVINO Acosh (reference/openvino_acosh.py holds the semantics), element-wise. Judged: OpenCL's bound for acosh + 1
for the reference's own rounding (5 ULPs), as ONNX Acosh's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_acosh

ENTRY = OpEntry(schema=openvino_acosh.SCHEMA, error_models={"y": Model("ulp", ulps=5)}, ir_layer="Acosh",
                summary="acosh, element-wise")
