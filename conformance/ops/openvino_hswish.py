"""OpenVINO HSwish (reference/openvino_hswish.py holds the semantics): x * relu6(x + 3) / 6, element-wise.

Judged: a multiply-add, a clamp, a multiply and a division by 6 (ONNX HardSwish's 3) + 1.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_hswish

ENTRY = OpEntry(
    schema=openvino_hswish.SCHEMA, error_models={"y": Model("ulp", ulps=3 + 1)}, ir_layer="HSwish",
    summary="x * relu6(x + 3) / 6, element-wise",
)
