"""OpenVINO Ceiling (reference/openvino_ceiling.py holds the semantics), element-wise. Judged: no arithmetic: the
result is exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_ceiling

ENTRY = OpEntry(schema=openvino_ceiling.SCHEMA, error_models={"y": "exact"}, ir_layer="Ceiling",
                summary="ceiling, element-wise")
