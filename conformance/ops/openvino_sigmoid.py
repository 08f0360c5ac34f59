"""OpenVINO Sigmoid (reference/openvino_sigmoid.py holds the semantics): 1 / (1 + e^-x), element-wise.

Judged: exp, a division and an add (OpenCL 3 + 2.5 + 1 ULPs) + 1, as ONNX Sigmoid's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_sigmoid

ENTRY = OpEntry(
    schema=openvino_sigmoid.SCHEMA, error_models={"y": Model("ulp", ulps=3 + 2.5 + 1 + 1)}, ir_layer="Sigmoid",
    summary="1 / (1 + e^-x), element-wise",
)
