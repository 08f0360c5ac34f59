"""OpenVINO Asin (reference/openvino_asin.py holds the semantics), element-wise. Judged: OpenCL's bound for asin + 1
for the reference's own rounding (5 ULPs), as ONNX Asin's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_asin

ENTRY = OpEntry(schema=openvino_asin.SCHEMA, error_models={"y": Model("ulp", ulps=5)}, ir_layer="Asin",
                summary="asin, element-wise")
