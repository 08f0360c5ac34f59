"""OpenVINO ReduceL2 (reference/openvino_reduce_l2.py holds the semantics). Judged by the accumulation bound at |y|:
the sum of K squares errs by at most (K + 1)·u relative (K - 1 additions and the squares' roundings, every term >=
0), the square root halves that and adds one rounding: ((K + 1)/2 + 1)·u·|y|, within (K + 2)·u·|y| for every K >= 1
(the contract's magnitude, the op on |x|, is |y|); an integer norm by floor or ceil of the exact root, since the
text states no rounding.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.comparison import Comparison
from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.tolerance import Policy
from conformance.ops._rounding import OpenRounding
from conformance.ops.openvino_reductions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reduce_l2


class _OpenRoot(ErrorModel):
    """floor or ceil of the exact root for integer outputs (OpenRounding's judgement); the accumulation bound, which
    the policy handed in carries, for floating-point ones."""

    name = "accumulate-open-rounding"
    bound = "accumulate"

    def describe(self, policy: Policy | None) -> str:
        return OpenRounding().describe(policy).replace("exact mean", "exact root")

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Policy | None,
              magnitude: np.ndarray | None, evidence: Evidence) -> Comparison:
        return OpenRounding().judge(expected, actual, output, policy, magnitude, evidence)


_L2 = _OpenRoot()

ENTRY = OpEntry(schema=openvino_reduce_l2.SCHEMA, error_models={"output": _L2}, ir_layer="ReduceL2",
                coverage=coverage, layout_inputs=(), summary="square root of the sum of squares along axes")
