"""OpenVINO NormalizeL2-1 (reference/openvino_normalize_l2.py holds the semantics): x / sqrt(eps_mode(sum of x²,
eps)). Every term is >= 0: the accumulation bound at |y| (the reference's ``magnitude``), K the reduced extent
(the squares, the sum and eps), then the sqrt and the division: 2 roundings.
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_normalize_l2


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("eps_mode", ("add", "max"), dims.attr("eps_mode", None))]


ENTRY = OpEntry(schema=openvino_normalize_l2.SCHEMA, error_models={"y": Model("accumulate", roundings=2)},
                ir_layer="NormalizeL2", coverage=coverage, layout_inputs=(),
                summary="x / sqrt(eps_mode(sum of x² over axes, eps))")
