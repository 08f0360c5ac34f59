"""OpenVINO RegionYolo-1 (reference/openvino_region_yolo.py). Judged by the exp/sigmoid ULPs in units of u·|y|:
σ(x) = 1/(1 + e^-x) is exp's 3 ULPs (≤ 6u relative, damped by e/(1 + e)), the addition and the division, ≤ 8u·|y|
(roundings=8); a softmax score e_i / Σe is its own exp (6u), the sum of ``classes`` exps ((classes - 1)u plus their
6u) and the division: the accumulation bound with K = classes + 4 over the magnitude |y| (the reference gives it
only for the scores) plus the 8 roundings, ≥ (classes + 12)·u·|y|. t_w and t_h pass unchanged (8u·|y| spare)."""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_region_yolo

ENTRY = OpEntry(schema=openvino_region_yolo.SCHEMA, error_models={"output": Model("accumulate", roundings=8)},
                ir_layer="RegionYolo", layout_inputs=(),
                summary="YOLO head: sigmoid of x, y and objectness, softmax of the class scores, flattened")
