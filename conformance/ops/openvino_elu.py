"""OpenVINO Elu (reference/openvino_elu.py holds the semantics): x, or alpha * (e^x - 1) for x <= 0, element-wise.

Judged: exp, a subtraction and the alpha multiply (3 + 1 + 1) + 1, measured at max(|y|, alpha) on the negative
branch (the reference's magnitude), as ONNX Elu's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_elu

ENTRY = OpEntry(
    schema=openvino_elu.SCHEMA, error_models={"y": Model("ulp", ulps=3 + 1 + 1 + 1)}, ir_layer="Elu",
    summary="x, or alpha * (e^x - 1) for x <= 0, element-wise",
)
