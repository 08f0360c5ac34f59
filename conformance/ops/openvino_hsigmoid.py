"""OpenVINO HSigmoid (reference/openvino_hsigmoid.py holds the semantics): relu6(x + 3) / 6, element-wise.

Judged: an add, a clamp and a division by 6 (ONNX HardSigmoid's 2) + 1.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_hsigmoid

ENTRY = OpEntry(
    schema=openvino_hsigmoid.SCHEMA, error_models={"y": Model("ulp", ulps=2 + 1)}, ir_layer="HSigmoid",
    summary="relu6(x + 3) / 6, element-wise",
)
