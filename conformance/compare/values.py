"""Compare a backend's outputs with the expected ones: shape, then dtype, then values.

NaN and infinities are compared as values: NaN matches only where NaN is expected, an infinity only the same
infinity. Elements the spec leaves unspecified (reference mask) are not compared and are counted apart.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.comparison import Comparison
from conformance.compare.heatmap import grid, heatmap
from conformance.compare.tolerance import Policy
from conformance.dtypes import beyond_float64, dtype_mismatch, dtype_name, finfo, floating, numpy, ulp

__all__ = ["WORST", "Comparison", "compare", "dtype_mismatch", "grid", "not_comparable", "shortest"]

WORST = 5


def compare(
    expected: np.ndarray,
    actual: Any,
    policy: Policy,
    magnitude: np.ndarray | None = None,
    unspecified: np.ndarray | None = None,
    name: str = "output",
) -> Comparison:
    unusable = not_comparable(expected, actual, name)
    if unusable is not None:
        return unusable
    # the elements first (their failure says why), then the one question of dtypes: a dtype mismatch overrides
    values = _equal if beyond_float64(expected) or beyond_float64(actual) else _values
    result = values(expected, actual, policy, magnitude, unspecified, name)
    if dtype_name(actual.dtype) != dtype_name(expected.dtype):
        result.ok = False
        result.reason = dtype_mismatch(expected, actual, name)
    return result


def compare_draw(expected: np.ndarray, actual: Any, name: str = "output",
                 drawn_from: tuple[float, ...] | None = None) -> Comparison:
    """An output whose values are a draw (a random op): its shape and dtype, the values it may take when the op
    promises them (``drawn_from``), and no figure of its values."""
    unusable = not_comparable(expected, actual, name)
    if unusable is not None:
        return unusable
    if dtype_name(actual.dtype) != dtype_name(expected.dtype):
        return Comparison(False, dtype_mismatch(expected, actual, name), elements=int(expected.size))
    if drawn_from is not None:
        outside = ~np.isin(np.asarray(actual, np.float64), np.asarray(drawn_from, np.float64))
        if outside.any():
            first = tuple(int(i) for i in np.argwhere(outside)[0])
            allowed = " or ".join(f"{v:g}" for v in drawn_from)
            return Comparison(False, f"{name}: {int(outside.sum())} of {outside.size} drawn values are not "
                                     f"{allowed} (the op draws only these); first at {list(first)}: "
                                     f"{np.asarray(actual)[first]!r}",
                              mismatches=int(outside.sum()), elements=int(expected.size))
    return Comparison(True, elements=int(expected.size))


def not_comparable(expected: np.ndarray, actual: Any, name: str) -> Comparison | None:
    """The failed comparison of an output that is no array or has another shape than expected; None when its
    elements can be compared (every error model starts here)."""
    if not isinstance(actual, np.ndarray):
        return Comparison(False, f"{name}: backend returned {type(actual).__name__}, not an array")
    if actual.shape != expected.shape:
        return Comparison(False, f"{name}: shape mismatch: expected {list(expected.shape)}, got "
                          f"{list(actual.shape)}", elements=int(expected.size))
    return None


def _values(expected: np.ndarray, actual: np.ndarray, policy: Policy, magnitude: np.ndarray | None,
            mask: np.ndarray | None, name: str) -> Comparison:
    compared = np.ones(expected.shape, bool) if mask is None else ~np.asarray(mask, bool)
    # An element stored equal to its expected value (or NaN where NaN is expected) is within any bound and adds 0
    # to every figure: the arithmetic below runs on the others only. A large output that matches (a 48M-element
    # Gather) then costs one comparison in its own dtype instead of a dozen float64 passes. ``Policy.bound`` is
    # element-wise (every model's formula is), so bounding a subset gives the subset of the whole's bound.
    look = np.flatnonzero(~_same(expected, actual) & compared)
    # the differing elements taken first, then widened: a few wrong elements of a large output cost their own size
    e = np.asarray(expected).reshape(-1)[look].astype(np.float64)
    a = np.asarray(actual).reshape(-1)[look].astype(np.float64)
    if magnitude is not None:
        magnitude = np.broadcast_to(np.asarray(magnitude), expected.shape).reshape(-1)[look].astype(np.float64)
    one_ulp = ulp(e, policy.dtype)  # once: the bound and the ULP figures both need it
    allowed = policy.bound(e, magnitude, one_ulp)
    finite = np.isfinite(e)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(a - e)
        bad = np.where(finite, ~(err <= allowed), ~((a == e) | (np.isnan(e) & np.isnan(a))))
    both = finite & np.isfinite(a)
    err_f = np.where(both, err, 0.0)
    counted = both & scales_with_value(e, policy.dtype)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rel = np.where(both & (e != 0), err_f / np.abs(e), 0.0)
        ulps = np.divide(err_f, one_ulp, out=np.zeros_like(err_f), where=counted)
        # a zero bound (exact outputs): 0 where equal, inf otherwise (0/0 would read as a mismatch)
        within = np.where(allowed > 0, err / np.where(allowed > 0, allowed, 1.0), np.where(err == 0, 0.0, np.inf))
        ratio = np.nan_to_num(np.where(finite, within, np.where(bad, np.inf, 0.0)), nan=np.inf)
    worst = []
    for k in _largest(ratio, WORST) if bad.any() else ():
        if not bad[k]:
            break
        index = np.unravel_index(look[k], expected.shape)
        worst.append({
            # shortest repr in the compared dtype: 13.7 in float32 reads 13.7, not 13.6999998, and values one ULP
            # apart read differently (a report prints the number as stored)
            "index": [int(i) for i in index], "expected": shortest(expected[index]),
            "actual": shortest(actual[index]),
            "abs_err": float(err[k]), "allowed": float(allowed[k]),
            # in ULPs of the expected value in the compared dtype, as max_ulp (None: not both finite, or an
            # expected 0 or subnormal: scales_with_value)
            "ulp": float(ulps[k]) if counted[k] else None,
        })
    shown, where = None, None
    if worst and expected.ndim >= 2:  # the grid of a failure: the whole output's ratios, 0 where equal
        whole, whole_bad = np.zeros(expected.size), np.zeros(expected.size, bool)
        whole[look], whole_bad[look] = ratio, bad
        shown, where = heatmap(whole.reshape(expected.shape), worst[0]["index"], whole_bad.reshape(expected.shape))
    return Comparison(
        ok=not bad.any(), reason=_failure(name, int(bad.sum()), int(expected.size), worst),
        max_abs_err=float(err_f.max(initial=0.0)),
        max_rel_err=float(rel.max(initial=0.0)),
        max_ulp=float(ulps.max(initial=0.0)),
        mismatches=int(bad.sum()),
        elements=int(expected.size),
        unspecified=int((~compared).sum()),
        worst=worst,
        error_grid=shown,
        grid_at=where,
    )


def scales_with_value(expected: np.ndarray, dtype: str) -> np.ndarray:
    """Where an error in ULPs of the expected value says how many of its roundings off a result is: every
    element of an integer type (its ULP is 1), a normal number of a floating one. At an expected 0 or subnormal the
    ULP is the smallest subnormal whatever the arithmetic (2^-149 in float32, the same as at the smallest normal,
    so measuring there changes nothing): an error of 0.3 where 0 is expected would read 2e44 ULPs. Such elements
    get no ULP figure (``worst[i].ulp`` None, left out of ``max_ulp``); their absolute error is the figure."""
    if not floating(numpy(dtype)):
        return np.ones(np.shape(expected), bool)
    return np.abs(expected) >= float(finfo(dtype).smallest_normal)


def _largest(ratio: np.ndarray, n: int) -> np.ndarray:
    """Positions of the ``n`` largest ratios, largest first, the first position first among equal ones (a stable
    sort's order) without sorting all of them: a failing output of millions of elements needs its top five only."""
    if ratio.size > 4 * n:
        floor = np.partition(ratio, ratio.size - n)[ratio.size - n]
        candidates = np.flatnonzero(ratio >= floor)
        return candidates[np.argsort(-ratio[candidates], kind="stable")[:n]]
    return np.argsort(-ratio, kind="stable")[:n]


def _same(expected: np.ndarray, actual: np.ndarray) -> np.ndarray:
    """Elements stored equal (-0 and 0 included) or NaN in both, compared in their own dtype when both have it."""
    native = expected.dtype == actual.dtype and expected.dtype.kind in "fiub"
    e = expected if native else np.asarray(expected, dtype=np.float64)
    a = actual if native else np.asarray(actual, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        same = np.asarray(e == a, bool)
        if e.dtype.kind == "f":
            same |= np.isnan(e) & np.isnan(a)
    return same


def _equal(expected: np.ndarray, actual: np.ndarray, policy: Policy, magnitude: np.ndarray | None,
           mask: np.ndarray | None, name: str) -> Comparison:
    """An output without rounding (integers, bool, strings) or compared with one that has none: equal elements,
    in the values' own types."""
    compared = np.ones(expected.shape, bool) if mask is None else ~np.asarray(mask, bool)
    try:
        same = np.asarray(expected == actual, bool)
    except (TypeError, ValueError):  # a string compared with a number: nothing is equal
        same = np.zeros(expected.shape, bool)
    if same.shape != expected.shape:
        same = np.zeros(expected.shape, bool)
    bad = ~same & compared
    worst = [{"index": [int(i) for i in index], "expected": _plain(expected[index]), "actual": _plain(actual[index]),
              "abs_err": None, "allowed": 0.0, "ulp": None}
             for index in zip(*np.nonzero(bad))][:WORST] if bad.any() else []
    return Comparison(ok=not bad.any(), reason=_failure(name, int(bad.sum()), int(bad.size), worst),
                      mismatches=int(bad.sum()), elements=int(expected.size),
                      unspecified=int((~compared).sum()), worst=worst)


def _plain(value: Any) -> Any:
    """A JSON value of one element: an int, a bool, a str, or the shortest float."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, str | bool | np.bool_):
        return value if isinstance(value, str) else bool(value)
    if np.issubdtype(type(value), np.integer):
        return int(value)
    try:
        return shortest(value)
    except (TypeError, ValueError):
        return str(value)


def _failure(name: str, mismatches: int, size: int, worst: list[dict[str, Any]]) -> str:
    """The reason of a failed comparison ("" when it passes): how many elements fail, and the worst of them."""
    if not mismatches:
        return ""
    return f"{name}: {mismatches} of {size} elements outside tolerance; {_worst_text(worst[0])}"


def _worst_text(w: dict[str, Any]) -> str:
    if w.get("abs_err") is None:
        return f"worst at {w['index']}: expected {w['expected']!r}, got {w['actual']!r}"
    return (
        f"worst at {w['index']}: expected {w['expected']:.9g}, got {w['actual']:.9g} "
        f"(|err| {w['abs_err']:.3g} > allowed {w['allowed']:.3g})"
    )


def shortest(value: Any) -> float:
    """The shortest decimal that reads back as ``value`` in its own dtype (float16, bfloat16, float32...), as a
    float: JSON then holds exactly that text. str() of a bfloat16 gives six digits where three can be enough."""
    v = float(value)
    kind = getattr(getattr(value, "dtype", None), "kind", "f")
    if not np.isfinite(v) or kind in "iub":
        return v
    exact = type(value)
    with np.errstate(over="ignore"):  # a short text of 65504 (float16's largest) is 7e+04: inf, not it
        for digits in range(1, 18):
            text = float(f"{v:.{digits}g}")
            if exact(text) == value:
                return text
    return v
