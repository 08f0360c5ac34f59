"""OpenVINO Power (reference/openvino_power.py holds the semantics): a ^ b after auto_broadcast.
Judged: pow's OpenCL bound (16 ULPs) + 1, as ONNX Pow's family; integer results exact.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_power

ENTRY = OpEntry(schema=openvino_power.SCHEMA, error_models={"y": Model("ulp", ulps=16 + 1)}, ir_layer="Power",
                layout_inputs=(), summary="a ^ b after auto_broadcast, element-wise")
