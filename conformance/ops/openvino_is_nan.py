"""OpenVINO IsNaN (reference/openvino_is_nan.py holds the semantics):
whether x is NaN, element-wise (boolean).
Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_is_nan

ENTRY = OpEntry(schema=openvino_is_nan.SCHEMA, error_models={"y": "exact"}, ir_layer="IsNaN",
                summary="whether x is NaN, element-wise (boolean)")
