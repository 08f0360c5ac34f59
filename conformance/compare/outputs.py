"""Judge every output of a case instance by its own error model, one Comparison each: pure functions of the
arrays and the oracle's evidence (compare/evidence.py).

One pass down (``judge_all``): first every output's policy and the record's tolerance text (compare/tolerance.py),
then one comparison per output (compare/judged.py), which goes down into the leaf rooms in one order: an op's own
model, or compare/indices.py for ``index`` outputs (ties accepted where they point at an equal maximum), or
compare/values.py for value outputs (``average``, ``pnorm``... get their derived bound, ``exact`` outputs must be
equal), each ending with the one question of dtypes (conformance/dtypes.py). A case's ``tolerance`` override
applies to value outputs, never to indices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from conformance.compare.evidence import Evidence
from conformance.compare.judged import Judged, compare_all
from conformance.compare.tolerance import INDEX_TEXT, describe, magnitude_floor, policies

# policies, describe, magnitude_floor and INDEX_TEXT are tolerance.py's, Judged and compare_all judged.py's; their
# users (verdict.py, repro/writer.py, the tests) have always found them here
__all__ = ["INDEX_TEXT", "Judged", "Outcome", "compare_all", "describe", "judge", "judge_all", "magnitude_floor",
           "policies"]


@dataclass(frozen=True)
class Outcome:
    """A column's outputs judged: the record's tolerance text and every output's judgement."""

    tolerance: str
    judged: list[Judged]  # empty when the column returned another number of outputs than expected


def judge_all(evidence: Evidence, expected: list[np.ndarray], actual: list, backend: str,
              scale: float = 1.0) -> Outcome:
    """Every output's policy and the record's text, then every output compared. The magnitude (a second
    reference pass) is asked for only when an averaging output needs it: not under an override, and not when
    every output is bit-identical."""
    identical = _bit_identical(expected, actual)
    rules = policies(evidence, backend, scale)
    text = describe(evidence, rules)
    if len(actual) != len(expected):
        return Outcome(text, [])
    # with finite inputs and positive scales, a bit-identical output cannot fail on any bound, and the floor
    # below is a lower bound of the magnitude
    sound = evidence.inputs_finite and all(r is None or r.scale > 0 for r in rules)
    needs_magnitude = any(p is not None and p.needs_magnitude for p in rules) and not (identical and sound)
    # a lower bound of the magnitude first: where every element passes with it, it passes with the magnitude
    # (the bound grows with it) and the record is the same (nothing recorded of a pass depends on the bound),
    # so the second reference pass is spent on failing outputs only
    floors = [magnitude_floor(e, r) for e, r in zip(expected, rules)] if needs_magnitude and sound else None
    while True:  # one comparison call: at most twice, on the floor and then on the magnitude itself
        magnitude = (floors if floors is not None else evidence.magnitude() if needs_magnitude else None
                     ) or [None] * len(expected)
        judged = compare_all(evidence, rules, expected, actual, magnitude)
        if floors is None or all(j.comparison.ok for j in judged):
            return Outcome(text, judged)
        floors = None


def judge(evidence: Evidence, expected: list[np.ndarray], actual: list, backend: str,
          scale: float = 1.0) -> list[Judged]:
    """Every output's judgement (``judge_all`` without the record's text)."""
    return judge_all(evidence, expected, actual, backend, scale).judged


def _bit_identical(expected: list[np.ndarray], actual: list) -> bool:
    """True when every output equals the expected one bit for bit (about half of all passes).

    Then, with finite inputs and positive scales, the magnitude cannot change the comparison: every error is 0,
    and the magnitude is finite or +inf wherever the expected value is finite, so the bound is >= 0 either way
    (NaN only where the expected value is NaN too, which is compared as a value); worst elements and the error
    grid exist only for mismatches. So the comparison without it is the same, and the second reference evaluation
    is saved.
    """
    return all(
        isinstance(a, np.ndarray) and a.dtype == e.dtype and a.shape == e.shape and a.tobytes() == e.tobytes()
        for e, a in zip(expected, actual)
    )
