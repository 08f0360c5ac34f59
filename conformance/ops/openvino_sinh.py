"""OpenVINO Sinh (reference/openvino_sinh.py holds the semantics), element-wise. Judged: OpenCL's bound for sinh + 1
for the reference's own rounding (5 ULPs), as ONNX Sinh's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_sinh

ENTRY = OpEntry(schema=openvino_sinh.SCHEMA, error_models={"y": Model("ulp", ulps=5)}, ir_layer="Sinh",
                summary="sinh, element-wise")
