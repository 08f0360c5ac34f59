"""OpenVINO FloorMod (reference/openvino_floor_mod.py holds the semantics): x - floor(x / y) * y after
auto_broadcast. Judged exact: the exact remainder rounded once (fmod is exact; the divisor's sign one sum).
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_floor_mod

ENTRY = OpEntry(schema=openvino_floor_mod.SCHEMA, error_models={"y": "exact"}, ir_layer="FloorMod",
                layout_inputs=(), summary="x - floor(x / y) * y (the divisor's sign) after auto_broadcast")
