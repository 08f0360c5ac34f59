"""OpenVINO Acos (reference/openvino_acos.py holds the semantics), element-wise. Judged: OpenCL's bound for acos + 1
for the reference's own rounding (5 ULPs), as ONNX Acos's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_acos

ENTRY = OpEntry(schema=openvino_acos.SCHEMA, error_models={"y": Model("ulp", ulps=5)}, ir_layer="Acos",
                summary="acos, element-wise")
