"""OpenVINO Round (reference/openvino_round.py holds the semantics): the nearest integer, halves to even or away
from zero. Judged exact: the result is an integer the type holds.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_round

ENTRY = OpEntry(schema=openvino_round.SCHEMA, error_models={"y": "exact"}, ir_layer="Round",
                summary="the nearest integer (half_to_even or half_away_from_zero), element-wise")
