"""OpenVINO HardSigmoid (reference/openvino_hard_sigmoid.py holds the semantics): max(0, min(1, alpha * x + beta)).
Judged: a multiply-add, clamped (ONNX HardSigmoid's 2) + 1, measured at |alpha * x| + |beta| where not clamped.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_hard_sigmoid

ENTRY = OpEntry(schema=openvino_hard_sigmoid.SCHEMA, error_models={"y": Model("ulp", ulps=2 + 1)},
                ir_layer="HardSigmoid", layout_inputs=(), summary="max(0, min(1, alpha * x + beta)), element-wise")
