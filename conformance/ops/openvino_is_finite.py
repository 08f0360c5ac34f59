"""OpenVINO IsFinite (reference/openvino_is_finite.py holds the semantics):
whether x is finite, element-wise (boolean).
Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_is_finite

ENTRY = OpEntry(schema=openvino_is_finite.SCHEMA, error_models={"y": "exact"}, ir_layer="IsFinite",
                summary="whether x is finite, element-wise (boolean)")
