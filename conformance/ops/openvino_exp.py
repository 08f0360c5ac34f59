"""OpenVINO Exp (reference/openvino_exp.py holds the semantics): e^x, element-wise.

Judged: OpenCL's exp bound (3 ULPs, OpenCL 3.0 C spec §7.4) + 1 for the reference's own rounding, as ONNX Exp's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_exp

ENTRY = OpEntry(
    schema=openvino_exp.SCHEMA, error_models={"y": Model("ulp", ulps=3 + 1)}, ir_layer="Exp",
    summary="e^x, element-wise",
)
