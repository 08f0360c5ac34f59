"""OpenVINO RandomPoisson-17 (reference/openvino_random_poisson.py holds the semantics). The text names its
algorithms but leaves the uniforms and the rejection probe to the implementation, so a draw is judged by what it
fixes and by its distribution (ops/_draws.py): shape and type exactly, every value a non-negative integer, 0 where
the rate is 0; then, over every group of >= 1000 elements of one rate, the count of each value k <= K = rate +
8·sqrt(rate) + 10 and of the tail above K within Bernstein's bound of n·P(k) (Poisson's pmf), and the group's sum
within Bennett's bound of n·rate, all of an output's tests together at a false alarm of at most 1e-9."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.values import Comparison
from conformance.ops._draws import FALSE_ALARM, MOMENTS_FROM, allowed_deviation, counts_test, failed, unusable
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_random_poisson


def _law(rate: float) -> dict[int, float]:
    """P(k) for k <= K and, under the key K + 1, P(k > K)."""
    top = int(math.ceil(rate + 8 * math.sqrt(rate) + 10))
    law = {k: math.exp(-rate + k * math.log(rate) - math.lgamma(k + 1)) for k in range(top + 1)}
    law[top + 1] = max(0.0, 1.0 - sum(law.values()))
    return law


class PoissonDraw(ErrorModel):
    name = "poisson-draw"
    bound = "random"

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Any, magnitude: Any,
              evidence: Evidence) -> Comparison:
        bad = unusable(expected, actual, output.name)
        if bad is not None:
            return bad
        rates = np.asarray(evidence.inputs[0], np.float64).reshape(-1)
        a = np.asarray(actual, np.float64).reshape(-1)
        size = int(a.size)
        wrong = ~np.isfinite(a) | (a < 0) | (a != np.floor(a))
        if wrong.any():
            return failed(output.name, f"a count that is no non-negative integer: {a[wrong][0]!r}", size)
        if (a[rates == 0] != 0).any():
            return failed(output.name, "a rate of 0 gave a count other than 0", size)
        groups = [r for r in np.unique(rates) if r > 0 and (rates == r).sum() >= MOMENTS_FROM]
        laws = {r: _law(float(r)) for r in groups}
        tests = sum(len(law) + 1 for law in laws.values())
        for r, law in laws.items():
            draws = a[rates == r]
            mean, allowed = draws.size * float(r), allowed_deviation(draws.size * float(r), tests)
            if abs(float(draws.sum()) - mean) > allowed:
                return failed(output.name, f"rate {r:g}: {draws.size} draws sum to {draws.sum():.0f}, expected "
                              f"{mean:.0f} within {allowed:.1f} (Bennett, false alarm {FALSE_ALARM:g})", size)
            why = counts_test(f"rate {r:g}", np.minimum(draws, max(law)), law, tests)
            if why:
                return failed(output.name, why, size)
        return Comparison(True, elements=size)

    def describe(self, policy: Any) -> str:
        return (f"poisson draw: shape, type, non-negative integer counts, 0 for rate 0; per rate of >= "
                f"{MOMENTS_FROM} elements each count's frequency and the sum within Bernstein's bound, false alarm <= "
                f"{FALSE_ALARM:g} (ops/_draws.py)")


ENTRY = OpEntry(schema=openvino_random_poisson.SCHEMA, error_models={"output": PoissonDraw()},
                ir_layer="RandomPoisson", summary="one Poisson count per rate, judged by its distribution")
