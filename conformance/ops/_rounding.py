"""The error model of an integer result whose rounding the spec leaves open: OpenVINO AvgPool-14/16's integer mean
(docs/spec-notes.md V7), the colour conversions' uint8 (a clipped affine formula).

Every rounding the text allows (toward zero, floor, ceil, half away from zero, half to even) lies in
[floor(m), ceil(m)] of the exact mean m, so an integer output is right where it is one of those two integers (m
itself where m is an integer). The exact mean is the op on the inputs converted to float64: a window's sum of 8-,
16- and 32-bit integers is exact there, and a mean that is no integer lies at least 1/K from one, far more than
float64's rounding of S/K. Floating-point outputs keep the op's bound (averaging by default).

``slack``: where the exact value is computed in floating point by a conforming implementation, a value that is
an integer (or within ``slack`` of one) may come out on either side of it, so the admissible integers are those of
[v - slack, v + slack] widened to the next integers: floor(v - slack) and ceil(v + slack). The colour conversions
state it (their values are multiples of 0.001, so any slack below 0.001 only lets an exact integer v give v - 1 or
v + 1, which a float32 computation of it may round to either side).
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
    """``bound`` (``average`` by default) for floating-point outputs; for integer ones, floor or ceil of the exact
    value (``subject``: what the record calls it), widened by ``slack``."""

    def __init__(self, bound: str = "average", subject: str = "mean", slack: float = 0.0) -> None:
        self.bound, self.subject, self.slack = bound, subject, float(slack)
        self.name = "average-open-rounding" if bound == "average" else f"{bound}-open-rounding"
        self.text = TEXT.replace("mean", subject) + (f", within {slack:g} of it" if slack else "")

    def describe(self, policy: Policy | None) -> str:
        if policy is None or policy.dtype == "bfloat16" or np.dtype(policy.dtype).kind not in "iu":
            return policy.describe() if policy is not None else self.text
        return self.text

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Policy | None,
              magnitude: np.ndarray | None, evidence: Evidence) -> Comparison:
        if expected.dtype.kind not in "iu":
            return compare(expected, actual, policy, magnitude, output.unspecified, name=output.name)
        unusable = not_comparable(expected, actual, output.name)
        if unusable is not None:
            return unusable
        if dtype_name(actual.dtype) != dtype_name(expected.dtype):
            return Comparison(False, dtype_mismatch(expected, actual, output.name), elements=int(expected.size))
        return _within_rounding(evidence, actual, output, self.subject, self.slack)


def _exact_bounds(evidence: Evidence, output: OutputRule, slack: float = 0.0
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(floor, ceil, float64 value) of the exact means: the oracle's exact outputs (the reference on the inputs as
    Python ints) give them as Fractions (exact at every integer width; an empty window's mean is unspecified)."""
    index = next(i for i, o in enumerate(evidence.outputs) if o is output)
    exact = evidence.exact()
    if exact is None:
        raise ValueError("the evidence holds no exact outputs: the oracle makes the evidence of an open rounding")
    mean = np.asarray(exact[index])
    if slack:  # the widened interval (kept inside the output type's range by the caller)
        # a Fraction minus a float is the float of the Fraction minus it (Python's arithmetic), so floor(v - slack)
        # is floor(float(v) - slack): computed on the float64 array at once, the same numbers as element by element
        value = mean.astype(np.float64)
        return np.floor(value - slack), np.ceil(value + slack), value
    low = np.frompyfunc(math.floor, 1, 1)(mean)
    high = np.frompyfunc(math.ceil, 1, 1)(mean)
    return low, high, mean.astype(np.float64)


def _within_rounding(evidence: Evidence, actual: np.ndarray, output: OutputRule, subject: str = "mean",
                     slack: float = 0.0) -> Comparison:
    compared = np.ones(actual.shape, bool) if output.unspecified is None else ~np.asarray(output.unspecified, bool)
    low_int, high_int, mean = _exact_bounds(evidence, output, slack)
    if slack:  # an output type the widened interval may leave: the actual's own
        info = np.iinfo(actual.dtype)
        low_int, high_int = np.maximum(low_int, info.min), np.minimum(high_int, info.max)
    if low_int.dtype != object and actual.dtype.itemsize <= 4:  # float64 holds every 32-bit integer exactly
        a = actual.astype(np.float64)
    else:
        a = actual.astype(object)
    ok = (a >= low_int) & (a <= high_int)  # Python ints where they are: exact even for 64-bit values
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
                         f"ceil of the exact {subject}; first at {w['index']}: exact {subject} {w['expected']:.9g}, "
                         f"got {w['actual']:.9g}")
    return result
