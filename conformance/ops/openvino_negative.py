"""OpenVINO Negative (reference/openvino_negative.py holds the semantics), element-wise. Judged: no arithmetic: the
result is exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_negative

ENTRY = OpEntry(schema=openvino_negative.SCHEMA, error_models={"y": "exact"}, ir_layer="Negative",
                summary="negative, element-wise")
