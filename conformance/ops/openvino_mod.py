"""OpenVINO Mod (reference/openvino_mod.py holds the semantics): x - trunc(x / y) * y after auto_broadcast.
Judged exact: the truncated remainder of two floats is exactly representable (C's fmod), integers exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_mod

ENTRY = OpEntry(schema=openvino_mod.SCHEMA, error_models={"y": "exact"}, ir_layer="Mod", layout_inputs=(),
                summary="x - trunc(x / y) * y (the dividend's sign) after auto_broadcast")
