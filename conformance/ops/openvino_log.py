"""OpenVINO Log (reference/openvino_log.py holds the semantics), element-wise. Judged: OpenCL's bound for log + 1 for
the reference's own rounding (4 ULPs), as ONNX Log's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_log

ENTRY = OpEntry(schema=openvino_log.SCHEMA, error_models={"y": Model("ulp", ulps=4)}, ir_layer="Log",
                summary="log, element-wise")
