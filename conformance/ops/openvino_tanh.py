"""OpenVINO Tanh (reference/openvino_tanh.py holds the semantics), element-wise. Judged: OpenCL's bound for tanh + 1
for the reference's own rounding (6 ULPs), as ONNX Tanh's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_tanh

ENTRY = OpEntry(schema=openvino_tanh.SCHEMA, error_models={"y": Model("ulp", ulps=6)}, ir_layer="Tanh",
                summary="tanh, element-wise")
