"""OpenVINO Swish (reference/openvino_swish.py holds the semantics): x * sigmoid(beta * x), beta 1 by default.
Judged: sigmoid (exp 3, a division 2.5) and two multiplies (ONNX Swish's 3 + 2.5 + 2) + 1.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_swish

ENTRY = OpEntry(schema=openvino_swish.SCHEMA, error_models={"y": Model("ulp", ulps=3 + 2.5 + 2 + 1)},
                ir_layer="Swish", layout_inputs=(), summary="x * sigmoid(beta * x), element-wise")
