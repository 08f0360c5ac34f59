"""OpenVINO Sqrt (reference/openvino_sqrt.py holds the semantics), element-wise. Judged: OpenCL's bound for sqrt + 1
for the reference's own rounding (4 ULPs), as ONNX Sqrt's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_sqrt

ENTRY = OpEntry(schema=openvino_sqrt.SCHEMA, error_models={"y": Model("ulp", ulps=4)}, ir_layer="Sqrt",
                summary="sqrt, element-wise")
