"""OpenVINO Atan (reference/openvino_atan.py holds the semantics), element-wise. Judged: OpenCL's bound for atan + 1
for the reference's own rounding (6 ULPs), as ONNX Atan's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_atan

ENTRY = OpEntry(schema=openvino_atan.SCHEMA, error_models={"y": Model("ulp", ulps=6)}, ir_layer="Atan",
                summary="atan, element-wise")
