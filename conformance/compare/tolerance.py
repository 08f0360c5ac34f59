"""Per-element error bounds derived from the arithmetic of each output's error model (docs/tolerance.md).

The op registry names the model of every output; compare/models.py holds the models (their bound formulas and
texts): ``average`` (below), ``pnorm`` (a p-norm of K terms), ``exact`` (no arithmetic: values must be equal,
NaN matching NaN) and ``index`` (compare/indices.py). This module applies the case's overrides around them.

An average of K terms computed in a floating-point type with unit roundoff u (any summation order, then one
division or a reciprocal and a multiply) is off from the exact value by at most

    (K - 1)·u·Σ|x|/n  +  2·u·|mean|   ≤   (K + 2)·u·mean(|x|)        (Higham, "Accuracy and Stability", §4)

where mean(|x|) is the same pooling applied to |x| (TOSA's per-test bound uses the same idea: the bound scales
with the magnitude of the terms, so cancellation of mixed signs does not make a correct result fail). Both the
reference (exact, then rounded) and the backend round the result to the output type once: one more ULP of the
expected value covers both. WebNN's "window + 2 ULP" is the same bound measured in ULPs of the output, which
breaks down under cancellation; this one does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from conformance.compare.models import model
from conformance.dtypes import finfo, floating, numpy, ulp

if TYPE_CHECKING:  # pragma: no cover
    from conformance.compare.evidence import Evidence

__all__ = ["INDEX_TEXT", "Policy", "describe", "finfo", "magnitude_floor", "policies", "policy_for", "ulp"]

#: The record's tolerance text of an index output (compare/indices.py: no bound, no override).
INDEX_TEXT = "index: equal, or another tap holding the window's value"


@dataclass(frozen=True)
class Policy:
    """How a case instance's values are compared; ``describe()`` goes into the result record."""

    window: int  # K: the most input elements one output averages (or sums, for a p-norm)
    dtype: str
    scale: float = 1.0
    atol: float | None = None
    rtol: float | None = None
    ulp: float | None = None
    model: str = "average"  # the output's error model: a value model of compare/models.py
    p: float = 1.0  # pnorm: the norm's exponent
    ulps: float = 0.0  # ulp: the bound in ULPs of the expected value
    roundings: int = 0  # the op's own roundings after the model's arithmetic (compare/models.py Model): u·|y| each
    window_note: str = ""  # how K was had, when by a stated fallback (said in the record's text)

    @property
    def overridden(self) -> bool:
        return self.atol is not None or self.rtol is not None or self.ulp is not None

    @property
    def needs_magnitude(self) -> bool:
        """The bound scales with the op applied to |x| (the oracle's second reference pass), and no override
        replaces it."""
        return model(self.model).magnitude and not self.overridden

    def describe(self) -> str:
        if self.atol is not None or self.rtol is not None:
            return f"override: |err| <= {self.atol or 0:g} + {self.rtol or 0:g}*|expected|"
        if self.ulp is not None:
            return f"override: |err| <= {self.ulp:g} ulp({self.dtype})"
        text = model(self.model).describe(self) + self.window_note
        if self.roundings:
            text += f"; then {self.roundings} rounding(s): + {_scale_text(self.scale)}{self.roundings}*u*|y|"
        return text

    def bound(self, expected: np.ndarray, magnitude: np.ndarray | None,
              one_ulp: np.ndarray | None = None) -> np.ndarray:
        """Allowed absolute error per element of ``expected`` (float64); ``one_ulp``: ``ulp(expected, dtype)``
        when the caller has it already (the comparison needs it for its ULP figures too)."""
        exp64 = np.asarray(expected, dtype=np.float64)
        if self.atol is not None or self.rtol is not None:
            return (self.atol or 0.0) + (self.rtol or 0.0) * np.abs(exp64)
        bound = model(self.model).bound
        if bound is None and self.ulp is None:  # no arithmetic: the values must be equal
            return np.zeros_like(exp64)
        if one_ulp is None:
            one_ulp = ulp(exp64, self.dtype)
        if self.ulp is not None or bound is None:
            return (self.ulp or 0.0) * one_ulp
        # an output without rounding (a random model's bool mask) has no unit roundoff
        u = 2.0 ** -(finfo(self.dtype).nmant + 1) if floating(numpy(self.dtype)) else 0.0
        found = bound(self, exp64, magnitude, one_ulp, u)
        if self.roundings:  # each of the op's own roundings after the model's arithmetic: u·|y| more
            found = found + self.scale * self.roundings * u * np.abs(exp64)
        return found


def policy_for(
    dtype: str, window: int, case_tolerance: dict, backend: str, backend_scale: float = 1.0,
    model: str = "average", p: float = 1.0, ulps: float = 0.0, roundings: int = 0, window_note: str = "",
) -> Policy:
    """The case's ``tolerance`` mapping may override the derived bound, for all backends or per backend."""
    merged = {k: v for k, v in case_tolerance.items() if k != "backends"}
    merged.update((case_tolerance.get("backends") or {}).get(backend, {}))
    return Policy(
        window=max(int(window), 1), dtype=dtype, scale=float(merged.get("scale", 1.0)) * backend_scale,
        atol=merged.get("atol"), rtol=merged.get("rtol"), ulp=merged.get("ulp"), model=model, p=float(p),
        ulps=float(ulps), roundings=int(roundings), window_note=window_note,
    )


def policies(evidence: Evidence, backend: str, scale: float = 1.0) -> list[Policy | None]:
    """The bound of every value output of ``evidence`` for ``backend`` (None for index outputs)."""
    return [None if not model(rule.error_model).values else
            policy_for(rule.dtype or evidence.dtype, rule.window, evidence.tolerance, backend, scale,
                       model=rule.error_model, p=rule.p, ulps=rule.ulps, roundings=rule.roundings,
                       window_note=rule.window_note)
            for rule in evidence.outputs]


def _scale_text(scale: float) -> str:
    return f"{scale:g}*" if scale != 1 else ""


def describe(evidence: Evidence, rules: list[Policy | None]) -> str:
    """The record's ``tolerance`` text: one policy, or one per output when they differ."""
    texts = [o.custom.describe_for(r, evidence) if o.custom is not None else r.describe() if r else INDEX_TEXT
             for o, r in zip(evidence.outputs, rules)]
    if len(set(texts)) == 1:
        return texts[0]
    return "; ".join(f"{output.label}: {t}" for output, t in zip(evidence.outputs, texts))


def magnitude_floor(expected: np.ndarray, rule: Policy | None) -> np.ndarray | None:
    """A lower bound of the magnitude (the op on |x|, exact) from the expected output alone: |mean(x)| <= mean(|x|),
    and the expected value is that mean rounded to its dtype (at most half a ulp away), so |e| - ulp(e) <= the
    magnitude wherever the inputs are finite."""
    if rule is None:
        return None
    if not model(rule.model).floored:  # a magnitude that is an error bound of its own: 0 is its floor
        return np.zeros(np.shape(expected))
    e = np.abs(np.asarray(expected, dtype=np.float64))
    return np.maximum(e - ulp(e, rule.dtype), 0.0)
