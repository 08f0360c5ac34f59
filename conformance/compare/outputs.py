"""Judge every output of a case instance by its own error model (the op registry's), one Comparison each.

``average`` and ``pnorm`` outputs get their derived bound (compare/tolerance.py), ``exact`` outputs must be
equal, ``index`` outputs go through compare/indices.py (ties accepted where they point at an equal maximum).
A case's ``tolerance`` override applies to value outputs, never to indices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from conformance import ops
from conformance.compare.indices import compare_indices
from conformance.compare.tolerance import Policy, policy_for, ulp
from conformance.compare.values import Comparison, compare
from conformance.ops.spec import Port
from conformance.oracle import Oracle

_DEFAULT = Port("output", error_model="average")


@dataclass(frozen=True)
class Judged:
    port: Port
    policy: Policy | None  # None for index outputs
    comparison: Comparison


def ports_of(oracle: Oracle, count: int) -> list[Port]:
    """The error model of each of ``count`` outputs (averaging for ops the registry does not know)."""
    inst = oracle.instance
    entry = ops.find(inst.domain, inst.op)
    if entry is None:
        return [_DEFAULT] * count
    return [entry.error_model(i) for i in range(count)]


def policies(oracle: Oracle, ports: list[Port], backend: str, scale: float = 1.0) -> list[Policy | None]:
    inst = oracle.instance
    found: list[Policy | None] = []
    for port in ports:
        if port.error_model == "index":
            found.append(None)
            continue
        window = oracle.window() if port.error_model in ("average", "pnorm") else 1
        found.append(policy_for(inst.dtype, window, inst.case.tolerance, backend, scale,
                                model=port.error_model, p=_exponent(oracle)))
    return found


def _exponent(oracle: Oracle) -> float:
    inst = oracle.instance
    entry = ops.find(inst.domain, inst.op)
    value = inst.attributes.get("p")
    if value is None and entry is not None:
        value = next((a.default for a in entry.attributes if a.name == "p"), None)
    try:
        return float(value) if value is not None else 1.0
    except (TypeError, ValueError):
        return 1.0


def judge(oracle: Oracle, expected: list[np.ndarray], actual: list, backend: str,
          scale: float = 1.0) -> list[Judged]:
    """Compare every output; the magnitude (a second reference pass) is computed only when an averaging output
    needs it: not under an override, and not when every output is bit-identical."""
    ports = ports_of(oracle, len(expected))
    rules = policies(oracle, ports, backend, scale)
    masks = oracle.unspecified or [None] * len(expected)
    names = oracle.instance.output_names or [f"output{i}" for i in range(len(expected))]
    needs_magnitude = any(
        port.error_model == "average" and rule is not None and not rule.overridden for port, rule in zip(ports, rules)
    ) and not _bit_identical(oracle, expected, actual, rules)
    if needs_magnitude and oracle.inputs_finite() and all(r is None or r.scale > 0 for r in rules):
        # a lower bound of the magnitude first: where every element passes with it, it passes with the magnitude
        # (the bound grows with it) and the record is the same (nothing recorded of a pass depends on the bound),
        # so the second reference pass is spent on failing outputs only
        floors = [magnitude_floor(e, r) for e, r in zip(expected, rules)]
        judged = _compare_all(oracle, ports, rules, masks, names, expected, actual, floors)
        if all(j.comparison.ok for j in judged):
            return judged
    magnitude = (oracle.magnitude() if needs_magnitude else None) or [None] * len(expected)
    return _compare_all(oracle, ports, rules, masks, names, expected, actual, magnitude)


def magnitude_floor(expected: np.ndarray, rule: Policy | None) -> np.ndarray | None:
    """A lower bound of the magnitude (the op on |x|, exact) from the expected output alone: |mean(x)| <= mean(|x|),
    and the expected value is that mean rounded to its dtype (at most half a ulp away), so |e| - ulp(e) <= the
    magnitude wherever the inputs are finite."""
    if rule is None:
        return None
    e = np.abs(np.asarray(expected, dtype=np.float64))
    return np.maximum(e - ulp(e, rule.dtype), 0.0)


def _compare_all(oracle: Oracle, ports: list[Port], rules: list[Policy | None], masks: list, names: list[str],
                 expected: list[np.ndarray], actual: list, magnitude: list) -> list[Judged]:
    judged = []
    for i, (port, rule) in enumerate(zip(ports, rules)):
        e, a, mask, name = expected[i], actual[i], masks[i] if i < len(masks) else None, names[i]
        if rule is None:
            values = expected[port.of_values] if port.of_values < len(expected) else None
            result = compare_indices(e, a, values, oracle.taps, mask, name=name)
        else:
            result = compare(e, a, rule, magnitude[i] if i < len(magnitude) else None, mask, name=name)
        judged.append(Judged(port, rule, result))
    return judged


def _bit_identical(oracle: Oracle, expected: list[np.ndarray], actual: list, rules: list[Policy | None]) -> bool:
    """True when every output equals the expected one bit for bit (about half of all passes).

    Then the magnitude cannot change the comparison: every error is 0, and with finite inputs the magnitude is
    finite or +inf wherever the expected value is finite, so the bound is >= 0 either way (NaN only where the
    expected value is NaN too, which is compared as a value); worst elements and the error grid exist only for
    mismatches. So the comparison without it is the same, and the second reference evaluation is saved.
    """
    if any(r is not None and not r.scale > 0 for r in rules) or not oracle.inputs_finite():
        return False
    return all(
        isinstance(a, np.ndarray) and a.dtype == e.dtype and a.shape == e.shape and a.tobytes() == e.tobytes()
        for e, a in zip(expected, actual)
    )


def describe(ports: list[Port], rules: list[Policy | None]) -> str:
    """The record's ``tolerance`` text: one policy, or one per output when they differ."""
    texts = [r.describe() if r else "index: equal, or another tap holding the window's value" for r in rules]
    if len(set(texts)) == 1:
        return texts[0]
    return "; ".join(f"{port.name}: {t}" for port, t in zip(ports, texts))


def describe_judged(judged: list[Judged]) -> str:
    return describe([j.port for j in judged], [j.policy for j in judged])


def describe_for(oracle: Oracle, count: int, backend: str, scale: float = 1.0) -> str:
    """The policy text of ``count`` outputs without comparing anything (e.g. when a backend returned too few)."""
    ports = ports_of(oracle, count)
    return describe(ports, policies(oracle, ports, backend, scale))
