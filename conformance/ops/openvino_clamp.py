"""OpenVINO Clamp (reference/openvino_clamp.py holds the semantics): x clipped to [min, max], element-wise.

Judged: no arithmetic: each output is x, min or max (integral bounds as the text converts them).
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_clamp

ENTRY = OpEntry(
    schema=openvino_clamp.SCHEMA, error_models={"y": "exact"}, ir_layer="Clamp",
    summary="x clipped to [min, max], element-wise",
)
