"""OpenVINO Tan (reference/openvino_tan.py holds the semantics), element-wise. Judged: OpenCL's bound for tan + 1 for
the reference's own rounding (6 ULPs), as ONNX Tan's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_tan

ENTRY = OpEntry(schema=openvino_tan.SCHEMA, error_models={"y": Model("ulp", ulps=6)}, ir_layer="Tan",
                summary="tan, element-wise")
