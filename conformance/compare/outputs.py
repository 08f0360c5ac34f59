"""Judge every output of a case instance by its own error model, one Comparison each: pure functions of the
arrays and the oracle's evidence (compare/evidence.py).

``average`` and ``pnorm`` outputs get their derived bound (compare/tolerance.py), ``exact`` outputs must be
equal, ``index`` outputs go through compare/indices.py (ties accepted where they point at an equal maximum).
A case's ``tolerance`` override applies to value outputs, never to indices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from conformance.compare.evidence import Evidence, OutputRule
from conformance.compare.indices import compare_indices
from conformance.compare.models import model
from conformance.compare.tolerance import Policy, policy_for, ulp
from conformance.compare.values import Comparison, compare

INDEX_TEXT = "index: equal, or another tap holding the window's value"


@dataclass(frozen=True)
class Judged:
    rule: OutputRule
    policy: Policy | None  # None for index outputs
    comparison: Comparison


def policies(evidence: Evidence, backend: str, scale: float = 1.0) -> list[Policy | None]:
    """The bound of every value output for ``backend`` (None for index outputs)."""
    return [None if not model(rule.error_model).values else
            policy_for(rule.dtype or evidence.dtype, rule.window, evidence.tolerance, backend, scale,
                       model=rule.error_model, p=rule.p, ulps=rule.ulps)
            for rule in evidence.outputs]


def judge(evidence: Evidence, expected: list[np.ndarray], actual: list, backend: str,
          scale: float = 1.0) -> list[Judged]:
    """Compare every output; the magnitude (a second reference pass) is asked for only when an averaging output
    needs it: not under an override, and not when every output is bit-identical."""
    rules = policies(evidence, backend, scale)
    needs_magnitude = any(
        model(r.error_model).magnitude and p is not None and not p.overridden for r, p in zip(evidence.outputs, rules)
    ) and not _bit_identical(evidence, expected, actual, rules)
    if needs_magnitude and evidence.inputs_finite and all(r is None or r.scale > 0 for r in rules):
        # a lower bound of the magnitude first: where every element passes with it, it passes with the magnitude
        # (the bound grows with it) and the record is the same (nothing recorded of a pass depends on the bound),
        # so the second reference pass is spent on failing outputs only
        floors = [magnitude_floor(e, r) for e, r in zip(expected, rules)]
        judged = compare_all(evidence, rules, expected, actual, floors)
        if all(j.comparison.ok for j in judged):
            return judged
    magnitude = (evidence.magnitude() if needs_magnitude else None) or [None] * len(expected)
    return compare_all(evidence, rules, expected, actual, magnitude)


def magnitude_floor(expected: np.ndarray, rule: Policy | None) -> np.ndarray | None:
    """A lower bound of the magnitude (the op on |x|, exact) from the expected output alone: |mean(x)| <= mean(|x|),
    and the expected value is that mean rounded to its dtype (at most half a ulp away), so |e| - ulp(e) <= the
    magnitude wherever the inputs are finite."""
    if rule is None:
        return None
    e = np.abs(np.asarray(expected, dtype=np.float64))
    return np.maximum(e - ulp(e, rule.dtype), 0.0)


def compare_all(evidence: Evidence, rules: list[Policy | None], expected: list[np.ndarray], actual: list,
                magnitude: list) -> list[Judged]:
    judged = []
    for i, (output, rule) in enumerate(zip(evidence.outputs, rules)):
        e, a = expected[i], actual[i]
        if output.custom is not None:
            result = output.custom.judge(e, a, output, rule, magnitude[i] if i < len(magnitude) else None, evidence)
        elif rule is None:
            values = expected[output.of_values] if output.of_values < len(expected) else None
            result = compare_indices(e, a, values, evidence.taps, output.unspecified, name=output.name)
        else:
            result = compare(e, a, rule, magnitude[i] if i < len(magnitude) else None, output.unspecified,
                             name=output.name)
        judged.append(Judged(output, rule, result))
    return judged


def _bit_identical(evidence: Evidence, expected: list[np.ndarray], actual: list, rules: list[Policy | None]) -> bool:
    """True when every output equals the expected one bit for bit (about half of all passes).

    Then the magnitude cannot change the comparison: every error is 0, and with finite inputs the magnitude is
    finite or +inf wherever the expected value is finite, so the bound is >= 0 either way (NaN only where the
    expected value is NaN too, which is compared as a value); worst elements and the error grid exist only for
    mismatches. So the comparison without it is the same, and the second reference evaluation is saved.
    """
    if any(r is not None and not r.scale > 0 for r in rules) or not evidence.inputs_finite:
        return False
    return all(
        isinstance(a, np.ndarray) and a.dtype == e.dtype and a.shape == e.shape and a.tobytes() == e.tobytes()
        for e, a in zip(expected, actual)
    )


def describe(evidence: Evidence, rules: list[Policy | None]) -> str:
    """The record's ``tolerance`` text: one policy, or one per output when they differ."""
    texts = [o.custom.describe(r) if o.custom is not None else r.describe() if r else INDEX_TEXT
             for o, r in zip(evidence.outputs, rules)]
    if len(set(texts)) == 1:
        return texts[0]
    return "; ".join(f"{output.label}: {t}" for output, t in zip(evidence.outputs, texts))


def describe_judged(evidence: Evidence, judged: list[Judged]) -> str:
    return describe(evidence, [j.policy for j in judged])


def describe_for(evidence: Evidence, backend: str, scale: float = 1.0) -> str:
    """The policy text of the evidence's outputs without comparing anything (e.g. a backend returned too few)."""
    return describe(evidence, policies(evidence, backend, scale))
