"""OpenVINO Abs (reference/openvino_abs.py holds the semantics), element-wise. Judged: no arithmetic: the result is
exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_abs

ENTRY = OpEntry(schema=openvino_abs.SCHEMA, error_models={"y": "exact"}, ir_layer="Abs",
                summary="absolute, element-wise")
