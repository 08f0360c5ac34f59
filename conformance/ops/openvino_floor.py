"""OpenVINO Floor (reference/openvino_floor.py holds the semantics), element-wise. Judged: no arithmetic: the result is
exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_floor

ENTRY = OpEntry(schema=openvino_floor.SCHEMA, error_models={"y": "exact"}, ir_layer="Floor",
                summary="floor, element-wise")
