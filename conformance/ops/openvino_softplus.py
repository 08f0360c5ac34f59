"""OpenVINO SoftPlus-4 (reference/openvino_softplus.py holds the semantics). Judged: exp, an add and log (OpenCL
3 + 1 + 3, as ONNX Softplus's family) + 1, measured at max(|y|, 1).
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_softplus

ENTRY = OpEntry(schema=openvino_softplus.SCHEMA, error_models={"y": Model("ulp", ulps=3 + 1 + 3 + 1)},
                ir_layer="SoftPlus", summary="ln(e^x + 1), element-wise")
