"""Draws judged by their op's rule, never against another draw (a runtime's generator is its own, seed or not, so a
record that compared two draws would change from run to run; a record is a function of its item).

- Dropout in training mode: each output element is 0 or x/(1 - ratio), to the op's three roundings (1 - ratio,
  the reciprocal or division, the product: |err| <= 3·u·|x/(1 - ratio)|); the mask, when asked, is true exactly
  where the output is the scaled x (either where x = 0: 0 scaled is 0); ratio 0 keeps every element: the output
  is the input itself, bit for bit, and the mask is all true.
- RandomUniform(Like): every value in [low, high] (the closed end: low + (high - low)·U with U < 1 can round up
  to high in the output type) and finite; RandomNormal(Like): finite. With n >= ``MOMENTS_FROM`` values, the
  sample's moments too, each test's false-alarm probability at most 1e-9 (so a correct generator fails one in a
  billion runs): a uniform mean within (high - low)·sqrt(ln(2/p)/(2n)) of (low + high)/2 (Hoeffding); a normal
  mean within z·scale/sqrt(n) of ``mean`` (z = 6.109, P(|Z| > z) = 1e-9) and Σ((x - mean)/scale)² within
  Laurent and Massart's bounds of n (χ² with n degrees: below n + 2·sqrt(n·t) + 2t and above n - 2·sqrt(n·t),
  each with probability e^-t, t = ln(2/p)).
Bernoulli keeps its values check (compare/values.py ``compare_draw``: 0 or 1).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.values import Comparison, not_comparable
from conformance.dtypes import dtype_mismatch, dtype_name, finfo

__all__ = ["FALSE_ALARM", "MOMENTS_FROM", "ROUNDINGS", "Dropout", "Sampled", "rule_for"]

#: the false-alarm probability of each moment test (a correct generator failing it)
FALSE_ALARM = 1e-9
#: the sample size from which the moments are tested (below it only the range and the dtype)
MOMENTS_FROM = 1000
#: P(|Z| > NORMAL_Z) = 1e-9 for a standard normal Z
NORMAL_Z = 6.109
#: Dropout's roundings of a kept element: 1 - ratio, its reciprocal (or the division), the product
ROUNDINGS = 3


def _start(expected: np.ndarray, actual: Any, name: str) -> Comparison | None:
    """The failure of an output that is no array of the expected shape and dtype, else None."""
    unusable = not_comparable(expected, actual, name)
    if unusable is not None:
        return unusable
    if dtype_name(actual.dtype) != dtype_name(expected.dtype):
        return Comparison(False, dtype_mismatch(expected, actual, name), elements=int(expected.size))
    return None


def _failed(name: str, bad: np.ndarray, what: str, shown: str) -> Comparison:
    first = [int(i) for i in np.argwhere(bad)[0]] if bad.ndim else []
    return Comparison(False, f"{name}: {int(bad.sum())} of {bad.size} elements {what}; first at {first}: {shown}",
                      mismatches=int(bad.sum()), elements=int(bad.size))


class Dropout(ErrorModel):
    """Dropout in training mode, judged by its rule (module docstring); ``port`` 0 the output, 1 the mask."""

    name = "dropout"
    bound = "random"
    joint = True  # the mask is judged against the output the same run drew

    def __init__(self, port: int) -> None:
        self.port = port

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Any, magnitude: Any,
              evidence: Evidence, outputs: list | None = None) -> Comparison:
        failed = _start(expected, actual, output.name)
        if failed is not None:
            return failed
        x = np.asarray(evidence.inputs[0])
        given = evidence.inputs[1] if len(evidence.inputs) > 1 and evidence.inputs[1] is not None else None
        ratio = float(np.asarray(given).reshape(-1)[0]) if given is not None and np.size(given) else 0.5
        if np.shape(x) != expected.shape:
            return Comparison(False, f"{output.name}: the input's shape {list(np.shape(x))} is not the output's")
        if self.port == 0:
            return self._values(x, ratio, actual, output.name)
        drawn = outputs[0] if outputs else None
        return self._mask(x, ratio, actual, drawn, output.name)

    @staticmethod
    def _values(x: np.ndarray, ratio: float, actual: np.ndarray, name: str) -> Comparison:
        x64, a64 = np.asarray(x, np.float64), np.asarray(actual, np.float64)
        both_nan = np.isnan(x64) & np.isnan(a64)
        if ratio == 0:
            bad = ~((a64 == x64) | both_nan)
            if bad.any():
                at = tuple(np.argwhere(bad)[0])
                return _failed(name, bad, "differ from the input (ratio 0 keeps every element)",
                                f"input {x64[at]!r}, got {a64[at]!r}")
            return Comparison(True, elements=int(x.size))
        u = 2.0 ** -(finfo(dtype_name(actual.dtype)).nmant + 1)
        with np.errstate(over="ignore", invalid="ignore"):
            scaled = x64 / (1.0 - ratio)
            near = np.abs(a64 - scaled) <= ROUNDINGS * u * np.abs(scaled)
        bad = ~((a64 == 0) | near | both_nan | (np.isinf(scaled) & (a64 == scaled)))
        if bad.any():
            at = tuple(np.argwhere(bad)[0])
            return _failed(name, bad, f"are neither 0 nor x/(1 - ratio) to 3 roundings (ratio {ratio:g})",
                           f"x {x64[at]!r}: x/(1 - ratio) = {scaled[at]!r}, got {a64[at]!r}")
        return Comparison(True, elements=int(x.size))

    @staticmethod
    def _mask(x: np.ndarray, ratio: float, mask: np.ndarray, drawn: Any, name: str) -> Comparison:
        kept = np.asarray(mask, bool)
        if ratio == 0:
            bad = ~kept
            if bad.any():
                return _failed(name, bad, "are false (ratio 0 keeps every element)", "False")
            return Comparison(True, elements=int(mask.size))
        if not isinstance(drawn, np.ndarray) or drawn.shape != mask.shape:
            return Comparison(True, "the mask is not checked: the output it goes with is not comparable",
                              elements=int(mask.size))
        # true exactly where the output is the scaled x; where x = 0 both are 0, either is fine
        bad = (np.asarray(x, np.float64) != 0) & (kept != (np.asarray(drawn, np.float64) != 0))
        if bad.any():
            at = tuple(np.argwhere(bad)[0])
            return _failed(name, bad, "disagree with the output (true exactly where it keeps x)",
                           f"mask {bool(kept[at])}, output {drawn[at]!r}")
        return Comparison(True, elements=int(mask.size))

    def describe(self, policy: Any) -> str:
        return ("dropout (training): each element 0 or x/(1-ratio) within 3*u*|x/(1-ratio)|, the mask true "
                "exactly where the output keeps x (either where x = 0), ratio 0 the input itself and an all-true "
                "mask; no figure of a draw (ops/drawn.py)")


class Sampled(ErrorModel):
    """RandomUniform(Like) and RandomNormal(Like): range, finiteness and, for a large sample, the moments."""

    name = "sampled"
    bound = "random"

    def __init__(self, kind: str, attributes: dict[str, Any]) -> None:
        self.kind = kind
        get = attributes.get
        self.low, self.high = float(get("low", 0.0)), float(get("high", 1.0))
        self.mean, self.scale = float(get("mean", 0.0)), float(get("scale", 1.0))

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Any, magnitude: Any,
              evidence: Evidence, outputs: list | None = None) -> Comparison:
        failed = _start(expected, actual, output.name)
        if failed is not None:
            return failed
        a = np.asarray(actual, np.float64)
        if self.kind == "uniform":
            bad = ~((a >= self.low) & (a <= self.high))
            if bad.any():
                at = tuple(np.argwhere(bad)[0])
                return _failed(output.name, bad, f"are outside [{self.low:g}, {self.high:g}]", repr(a[at]))
        bad = ~np.isfinite(a)
        if bad.any():
            return _failed(output.name, bad, "are not finite", repr(a[tuple(np.argwhere(bad)[0])]))
        why = self.moments(a.reshape(-1))
        if why:
            return Comparison(False, f"{output.name}: {why}", elements=int(a.size))
        return Comparison(True, elements=int(a.size))

    def moments(self, a: np.ndarray) -> str:
        """Why the sample's moments are not the distribution's (each test at FALSE_ALARM), or ""."""
        n = a.size
        if n < MOMENTS_FROM:
            return ""
        t = math.log(2 / FALSE_ALARM)
        if self.kind == "uniform":
            width = self.high - self.low
            allowed = width * math.sqrt(t / (2 * n))
            mean = float(a.mean())
            if abs(mean - (self.low + self.high) / 2) > allowed:
                return (f"the mean of {n} draws is {mean:.6g}, more than {allowed:.3g} from "
                        f"{(self.low + self.high) / 2:g} (Hoeffding, false alarm {FALSE_ALARM:g})")
            return ""
        z = (a - self.mean) / self.scale if self.scale else a - self.mean
        allowed = NORMAL_Z / math.sqrt(n)
        if abs(float(z.mean())) > allowed:
            return (f"the mean of {n} draws is {float(a.mean()):.6g}, more than {allowed * self.scale:.3g} from "
                    f"{self.mean:g} (normal tail, false alarm {FALSE_ALARM:g})")
        chi = float((z * z).sum())
        if not n - 2 * math.sqrt(n * t) <= chi <= n + 2 * math.sqrt(n * t) + 2 * t:
            return (f"the spread of {n} draws is off: Σ((x-mean)/scale)² = {chi:.6g}, outside "
                    f"[{n - 2 * math.sqrt(n * t):.6g}, {n + 2 * math.sqrt(n * t) + 2 * t:.6g}] (Laurent-Massart, "
                    f"false alarm {FALSE_ALARM:g})")
        return ""

    def describe(self, policy: Any) -> str:
        what = (f"in [{self.low:g}, {self.high:g}]" if self.kind == "uniform" else "finite")
        return (f"random {self.kind} draw: dtype, values {what}; with >= {MOMENTS_FROM} values the moments, each "
                f"test's false alarm <= {FALSE_ALARM:g} (ops/drawn.py)")


def rule_for(op: str, attributes: dict[str, Any], port: int) -> ErrorModel | None:
    """The draw rule of an output of ``op`` (None: no rule of its own: shape, dtype and promised values)."""
    if op == "Dropout":
        return Dropout(port)
    if op in ("RandomUniform", "RandomUniformLike"):
        return Sampled("uniform", attributes)
    if op in ("RandomNormal", "RandomNormalLike"):
        return Sampled("normal", attributes)
    return None
