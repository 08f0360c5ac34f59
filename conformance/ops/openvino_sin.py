"""OpenVINO Sin (reference/openvino_sin.py holds the semantics), element-wise. Judged: OpenCL's bound for sin + 1 for
the reference's own rounding (5 ULPs), as ONNX Sin's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_sin

ENTRY = OpEntry(schema=openvino_sin.SCHEMA, error_models={"y": Model("ulp", ulps=5)}, ir_layer="Sin",
                summary="sin, element-wise")
