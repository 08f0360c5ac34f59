"""OpenVINO SoftSign (reference/openvino_softsign.py holds the semantics): x / (1 + |x|), element-wise.

Judged: an add and a division (OpenCL 1 + 2.5) + 1, as ONNX Softsign's family.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_softsign

ENTRY = OpEntry(
    schema=openvino_softsign.SCHEMA, error_models={"y": Model("ulp", ulps=2.5 + 1 + 1)}, ir_layer="SoftSign",
    summary="x / (1 + |x|), element-wise",
)
