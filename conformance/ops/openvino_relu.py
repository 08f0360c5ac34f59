"""OpenVINO ReLU (reference/openvino_relu.py holds the semantics): max(0, x), element-wise.

Judged: no arithmetic: max(0, x) is one of its inputs.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_relu

ENTRY = OpEntry(
    schema=openvino_relu.SCHEMA, error_models={"y": "exact"}, ir_layer="ReLU",
    summary="max(0, x), element-wise",
)
