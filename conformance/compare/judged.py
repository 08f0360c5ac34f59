"""One comparison per output, each handed to the room of its error model: an op's own (its registry entry's
``ErrorModel``), compare/indices.py for ``index`` outputs, compare/values.py for value outputs.

Apart from compare/outputs.py, which works out every output's policy (compare/tolerance.py) before it comes here:
so the path goes down once, tolerance first and the leaf rooms after, and never climbs back to the orchestrator.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from conformance.compare.evidence import Evidence, OutputRule
from conformance.compare.indices import compare_indices
from conformance.compare.models import model
from conformance.compare.tolerance import Policy
from conformance.compare.values import Comparison, compare, compare_draw


@dataclass(frozen=True)
class Judged:
    rule: OutputRule
    policy: Policy | None  # None for index outputs
    comparison: Comparison


def compare_all(evidence: Evidence, rules: list[Policy | None], expected: list[np.ndarray], actual: list,
                magnitude: list) -> list[Judged]:
    """Every output compared by its error model (``magnitude``: per output, the bound's magnitude or None)."""
    judged = []
    for i, (output, rule) in enumerate(zip(evidence.outputs, rules)):
        e, a = expected[i], actual[i]
        if output.custom is not None:
            extra = {"outputs": actual} if output.custom.joint else {}
            result = output.custom.judge(e, a, output, rule, magnitude[i] if i < len(magnitude) else None, evidence,
                                         **extra)
        elif rule is None:
            values = expected[output.of_values] if output.of_values < len(expected) else None
            result = compare_indices(e, a, values, evidence.taps, output.unspecified, name=output.name)
        elif model(rule.model).draw:
            result = compare_draw(e, a, name=output.name, drawn_from=output.drawn_from)
        else:
            result = compare(e, a, rule, magnitude[i] if i < len(magnitude) else None, output.unspecified,
                             name=output.name)
        judged.append(Judged(output, rule, result))
    return judged
