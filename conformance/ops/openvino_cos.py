"""OpenVINO Cos (reference/openvino_cos.py holds the semantics), element-wise. Judged: OpenCL's bound for cos + 1 for
the reference's own rounding (5 ULPs), as ONNX Cos's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_cos

ENTRY = OpEntry(schema=openvino_cos.SCHEMA, error_models={"y": Model("ulp", ulps=5)}, ir_layer="Cos",
                summary="cos, element-wise")
