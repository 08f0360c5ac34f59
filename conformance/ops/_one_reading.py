"""The error model of an op whose text defines its value in more than one way, any of which conforms: Gelu-2 gives
the erf form and says it "may be approximated" by a tanh form, so an implementation computes one of the two, and
the two differ by far more than rounding (up to ~5e-4 near |x| = 2).

Each reading (the reference's ``readings``) is judged by the op's built-in bound, and the output conforms when it
is within that bound of one reading **whole**: every element by the same formula, as an implementation computes
it. An element-wise "either" would admit a mixture that no formula of the text gives, and a bound widened to the
gap between the readings would admit any value between them; neither is what the text allows. The record's reason
names the reading an output failed closest to, and its tolerance text says the readings were tried.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.models import Model
from conformance.compare.tolerance import Policy
from conformance.compare.values import Comparison, compare


class OneReading(ErrorModel):
    """``model``: the built-in bound each reading is judged by; ``versions``: the op-versions whose text gives
    several readings (the others are judged by ``model`` alone, and their record reads as it would without this
    model); ``readings``: what the tolerance text calls them."""

    name = "one-reading"

    def __init__(self, model: Model, versions: tuple[int, ...], readings: str) -> None:
        self.model, self.bound, self.versions, self.readings = model, model.model, tuple(versions), readings

    def describe(self, policy: Policy | None) -> str:
        return policy.describe() if policy is not None else self.model.model

    def describe_for(self, policy: Policy | None, evidence: Evidence) -> str:
        text = self.describe(policy)
        if evidence.version in self.versions:
            return f"{text}, of one reading whole ({self.readings})"
        return text

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Policy | None,
              magnitude: np.ndarray | None, evidence: Evidence) -> Comparison:
        first = compare(expected, actual, policy, magnitude, output.unspecified, name=output.name)
        readings = evidence.readings() if evidence.version in self.versions else None
        if first.ok or not readings:
            return first
        k = [rule.name for rule in evidence.outputs].index(output.name)
        tried = {name: compare(outputs[k], actual, policy, magnitude, output.unspecified, name=output.name)
                 for name, outputs in readings.items()}
        for found in tried.values():
            if found.ok:
                return found
        name, closest = min(tried.items(), key=lambda item: _distance(item[1]))
        closest.reason = f"{closest.reason} (matching no reading of the text; closest: {name})"
        return closest


def _distance(found: Comparison) -> tuple[float, int]:
    """How far an output is from a reading: its largest error first (a reading that is off everywhere by rounding
    is closer than one that agrees where both saturate and is off by the gap elsewhere), then its mismatches."""
    worst = found.max_abs_err if found.max_abs_err is not None and found.max_abs_err == found.max_abs_err else np.inf
    return worst, found.mismatches or 0
