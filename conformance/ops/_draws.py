"""Judging an OpenVINO draw whose values the text leaves to the implementation (Multinomial-13's uniforms,
RandomPoisson-17's rejection steps): never against another draw, but by what the text fixes - the output's shape,
type and range exactly - and by its distribution: per class (or count value) the number of draws S within
Bernstein's bound of its expectation, P(|S - n·p| >= t) <= 2·exp(-t²/(2(n·p(1-p) + t/3))), so |S - n·p| <=
L/3 + sqrt(L²/9 + 2·L·n·p(1-p)) with L = ln(2/a); a sum of Poisson counts (a Poisson variable of mean m) likewise
with n·p(1-p) replaced by m (Bennett's inequality, the upper tail; the lower is tighter). Each test at a =
FALSE_ALARM / (the number of tests), so a correct generator fails one item in a billion runs (Bonferroni); only
where a test has at least ``MOMENTS_FROM`` draws (below it: shape, type and range only).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance.compare.values import Comparison, not_comparable
from conformance.dtypes import dtype_mismatch, dtype_name

#: the false-alarm probability of all of one output's distribution tests together
FALSE_ALARM = 1e-9
#: the draws a test needs before it is made
MOMENTS_FROM = 1000


def unusable(expected: np.ndarray, actual: Any, name: str) -> Comparison | None:
    """The failure of an output that is no array of the expected shape and dtype, else None."""
    failed = not_comparable(expected, actual, name)
    if failed is not None:
        return failed
    if dtype_name(actual.dtype) != dtype_name(expected.dtype):
        return Comparison(False, dtype_mismatch(expected, actual, name), elements=int(expected.size))
    return None


def allowed_deviation(variance: float, tests: int) -> float:
    """Bernstein's two-sided bound on |S - E S| at FALSE_ALARM / tests, for a sum of independent terms within 1 of
    their means (or a Poisson sum) of total ``variance``."""
    level = math.log(2 * max(tests, 1) / FALSE_ALARM)
    return level / 3 + math.sqrt(level * level / 9 + 2 * level * variance)


def counts_test(label: str, draws: np.ndarray, probabilities: dict[int, float], tests: int) -> str:
    """Why the draws' counts are not the distribution's (``probabilities``: value -> its probability), or ""."""
    n = draws.size
    for value, p in sorted(probabilities.items()):
        count = int((draws == value).sum())
        allowed = allowed_deviation(n * p * (1 - p), tests)
        if abs(count - n * p) > allowed:
            return (f"{label}: {count} of {n} draws are {value}, expected {n * p:.1f} within {allowed:.1f} "
                    f"(Bernstein, false alarm {FALSE_ALARM:g} over {tests} tests)")
    return ""


def failed(name: str, why: str, elements: int) -> Comparison:
    return Comparison(False, f"{name}: {why}", elements=elements)
