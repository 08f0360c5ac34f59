"""OpenVINO GroupNormalization-12 (reference/openvino_group_normalization.py holds the semantics): per sample and
group, scale·(x - mean)/sqrt(variance + epsilon) + bias. The accumulation bound, K a group's elements, at the
normalisation's magnitude scaled by |scale| plus |bias| (the reference's ``magnitude``), then the + epsilon, sqrt
and division: 3 roundings.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_group_normalization

ENTRY = OpEntry(schema=openvino_group_normalization.SCHEMA, error_models={"y": Model("accumulate", roundings=3)},
                ir_layer="GroupNormalization", layout_inputs=(),
                summary="scale·(x - mean)/sqrt(variance + epsilon) + bias per group of channels")
