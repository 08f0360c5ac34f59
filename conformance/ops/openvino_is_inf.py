"""OpenVINO IsInf (reference/openvino_is_inf.py holds the semantics):
whether x is +inf or -inf (detect positive, detect negative), element-wise (boolean).
Judged exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_is_inf

ENTRY = OpEntry(schema=openvino_is_inf.SCHEMA, error_models={"y": "exact"}, ir_layer="IsInf",
                summary="whether x is +inf or -inf (detect positive, detect negative), element-wise (boolean)")
