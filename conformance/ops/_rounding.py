"""The error model of an average whose integer rounding the spec leaves open (OpenVINO AvgPool-14/16 on integer
types, docs/spec-notes.md V7).

Every rounding the text allows (toward zero, floor, ceil, half away from zero, half to even) lies in
[floor(m), ceil(m)] of the exact mean m, so an integer output is right where it is one of those two integers (m
itself where m is an integer). The exact mean is the op on the inputs converted to float64: a window's sum of 8-,
16- and 32-bit integers is exact there, and a mean that is no integer lies at least 1/K from one, far more than
float64's rounding of S/K. Floating-point outputs keep the averaging bound.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.tolerance import Policy
from conformance.compare.values import WORST, Comparison, compare, dtype_mismatch, grid, not_comparable
from conformance.dtypes import dtype_name

TEXT = "integer: floor or ceil of the exact mean (rounding unspecified)"


class OpenRounding(ErrorModel):
    """``average`` for floating-point outputs; for integer ones, floor or ceil of the exact mean."""

    name = "average-open-rounding"
    bound = "average"

    def describe(self, policy: Policy | None) -> str:
        if policy is None or policy.dtype == "bfloat16" or np.dtype(policy.dtype).kind not in "iu":
            return policy.describe() if policy is not None else TEXT
        return TEXT

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Policy | None,
              magnitude: np.ndarray | None, evidence: Evidence) -> Comparison:
        if expected.dtype.kind not in "iu":
            return compare(expected, actual, policy, magnitude, output.unspecified, name=output.name)
        unusable = not_comparable(expected, actual, output.name)
        if unusable is not None:
            return unusable
        if dtype_name(actual.dtype) != dtype_name(expected.dtype):
            return Comparison(False, dtype_mismatch(expected, actual, output.name), elements=int(expected.size))
        return _within_rounding(evidence, actual, output)


def _exact_bounds(evidence: Evidence, output: OutputRule) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(floor, ceil, float64 value) of the exact means: the oracle's exact outputs (the reference on the inputs as
    Python ints) give them as Fractions (exact at every integer width; an empty window's mean is unspecified)."""
    index = next(i for i, o in enumerate(evidence.outputs) if o is output)
    exact = evidence.exact()
    if exact is None:
        raise ValueError("the evidence holds no exact outputs: the oracle makes the evidence of an open rounding")
    mean = exact[index]
    low = np.frompyfunc(math.floor, 1, 1)(mean)
    high = np.frompyfunc(math.ceil, 1, 1)(mean)
    return low, high, mean.astype(np.float64)


def _within_rounding(evidence: Evidence, actual: np.ndarray, output: OutputRule) -> Comparison:
    compared = np.ones(actual.shape, bool) if output.unspecified is None else ~np.asarray(output.unspecified, bool)
    low_int, high_int, mean = _exact_bounds(evidence, output)
    a = actual.astype(object)
    ok = (a >= low_int) & (a <= high_int)  # Python ints: exact even for 64-bit values
    low, high, a = low_int.astype(np.float64), high_int.astype(np.float64), actual.astype(np.float64)
    with np.errstate(invalid="ignore"):
        bad = ~ok.astype(bool) & compared
        # how far outside the admissible pair, in units of 1 (the heatmap's scale: > 1 is out of bound)
        off = np.where(bad, np.maximum(low - a, a - high), 0.0)
    err = np.where(compared, np.abs(a - mean), 0.0)
    result = Comparison(ok=not bad.any(), max_abs_err=float(np.nan_to_num(err).max(initial=0.0)),
                        max_ulp=float(np.nan_to_num(off).max(initial=0.0)), max_rel_err=0.0,
                        mismatches=int(bad.sum()), elements=int(mean.size), unspecified=int((~compared).sum()))
    if bad.any():
        positions = [tuple(int(v) for v in flat) for flat in np.argwhere(bad)[:WORST]]
        result.worst = [{"index": list(i), "expected": float(mean[i]), "actual": float(a[i]),
                         "abs_err": float(err[i]), "allowed": float(high[i] - mean[i] if a[i] > mean[i]
                                                                   else mean[i] - low[i])} for i in positions]
        result.error_grid = grid(1.0 + off) if bad.ndim >= 2 else None
        w = result.worst[0]
        result.reason = (f"{output.name}: {result.mismatches} of {result.elements} elements are neither floor nor "
                         f"ceil of the exact mean; first at {w['index']}: exact mean {w['expected']:.9g}, got "
                         f"{w['actual']:.9g}")
    return result
