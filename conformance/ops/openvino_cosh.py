"""OpenVINO Cosh (reference/openvino_cosh.py holds the semantics), element-wise. Judged: OpenCL's bound for cosh + 1
for the reference's own rounding (5 ULPs), as ONNX Cosh's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_cosh

ENTRY = OpEntry(schema=openvino_cosh.SCHEMA, error_models={"y": Model("ulp", ulps=5)}, ir_layer="Cosh",
                summary="cosh, element-wise")
