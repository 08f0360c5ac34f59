"""OpenVINO Mish (reference/openvino_mish.py holds the semantics): x * tanh(softplus(x)), element-wise.

Judged: tanh (5) of softplus (exp, add, log: 7) times x (1) + 1, as ONNX Mish's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_mish

ENTRY = OpEntry(
    schema=openvino_mish.SCHEMA, error_models={"y": Model("ulp", ulps=5 + 7 + 1 + 1)}, ir_layer="Mish",
    summary="x * tanh(softplus(x)), element-wise",
)
