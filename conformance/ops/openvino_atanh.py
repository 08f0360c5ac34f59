"""OpenVINO Atanh (reference/openvino_atanh.py holds the semantics), element-wise. Judged: OpenCL's bound for atanh
+ 1 for the reference's own rounding (6 ULPs), as ONNX Atanh's family; integers exact (the text's saturation).
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_atanh

ENTRY = OpEntry(schema=openvino_atanh.SCHEMA, error_models={"y": Model("ulp", ulps=5 + 1)}, ir_layer="Atanh",
                summary="atanh, element-wise; integers saturate")
