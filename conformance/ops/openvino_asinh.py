"""OpenVINO Asinh (reference/openvino_asinh.py holds the semantics), element-wise. Judged: OpenCL's bound for asinh + 1
for the reference's own rounding (5 ULPs), as ONNX Asinh's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_asinh

ENTRY = OpEntry(schema=openvino_asinh.SCHEMA, error_models={"y": Model("ulp", ulps=5)}, ir_layer="Asinh",
                summary="asinh, element-wise")
