"""OpenVINO Erf (reference/openvino_erf.py holds the semantics), element-wise. Judged: OpenCL's bound for erf + 1 for
the reference's own rounding (17 ULPs), as ONNX Erf's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_erf

ENTRY = OpEntry(schema=openvino_erf.SCHEMA, error_models={"y": Model("ulp", ulps=17)}, ir_layer="Erf",
                summary="erf, element-wise")
