"""Compare a backend's outputs with the expected ones: shape, then dtype, then values.

NaN and infinities are compared as values: NaN matches only where NaN is expected, an infinity only the same
infinity. Elements the spec leaves unspecified (reference mask) are not compared and are counted apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.compare.tolerance import Policy, ulp
from conformance.dtypes import dtype_name

WORST = 5
GRID = 24


@dataclass
class Comparison:
    ok: bool
    reason: str = ""
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    max_ulp: float | None = None
    mismatches: int | None = None
    elements: int | None = None
    unspecified: int = 0
    ties: int = 0  # index outputs: differing indices accepted because they point at an equal maximum
    worst: list[dict[str, Any]] = field(default_factory=list)
    error_grid: list[list[float]] | None = None


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
    result = _values(expected, actual, policy, magnitude, unspecified)
    if dtype_name(actual.dtype) != dtype_name(expected.dtype):
        result.ok = False
        result.reason = dtype_mismatch(expected, actual, name)
    elif not result.ok:
        result.reason = f"{name}: {result.mismatches} of {result.elements} elements outside tolerance; " + _worst_text(
            result.worst[0]
        )
    return result


def not_comparable(expected: np.ndarray, actual: Any, name: str) -> Comparison | None:
    """The failed comparison of an output that is no array or has another shape than expected; None when its
    elements can be compared (every error model starts here)."""
    if not isinstance(actual, np.ndarray):
        return Comparison(False, f"{name}: backend returned {type(actual).__name__}, not an array")
    if actual.shape != expected.shape:
        return Comparison(False, f"{name}: shape mismatch: expected {list(expected.shape)}, got "
                          f"{list(actual.shape)}", elements=int(expected.size))
    return None


def dtype_mismatch(expected: np.ndarray, actual: np.ndarray, name: str) -> str:
    return f"{name}: dtype mismatch: expected {dtype_name(expected.dtype)}, got {dtype_name(actual.dtype)}"


def _values(
    expected: np.ndarray, actual: np.ndarray, policy: Policy, magnitude: np.ndarray | None, mask: np.ndarray | None
) -> Comparison:
    e = np.asarray(expected, dtype=np.float64)
    a = np.asarray(actual, dtype=np.float64)
    compared = np.ones(e.shape, bool) if mask is None else ~np.asarray(mask, bool)
    one_ulp = ulp(e, policy.dtype)  # once: the bound and the ULP figures both need it
    allowed = policy.bound(e, magnitude, one_ulp)
    finite = np.isfinite(e)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(a - e)
        bad = np.where(finite, ~(err <= allowed), ~((a == e) | (np.isnan(e) & np.isnan(a))))
    bad &= compared
    both = finite & np.isfinite(a) & compared
    err_f = np.where(both, err, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(both & (e != 0), err_f / np.abs(e), 0.0)
        ulps = np.where(both, err_f / one_ulp, 0.0)
        # a zero bound (exact outputs): 0 where equal, inf otherwise (0/0 would read as a mismatch)
        within = np.where(allowed > 0, err / np.where(allowed > 0, allowed, 1.0), np.where(err == 0, 0.0, np.inf))
        ratio = np.where(finite, within, np.where(bad, np.inf, 0.0))
    ratio = np.where(compared, np.nan_to_num(ratio, nan=np.inf), 0.0)
    worst = []
    if bad.any():
        for flat in np.argsort(-ratio, axis=None, kind="stable")[:WORST]:
            index = np.unravel_index(flat, e.shape)
            if not bad[index]:
                break
            worst.append({
                # shortest repr in the compared dtype: 13.7 in float32 reads 13.7, not 13.6999998
                "index": [int(i) for i in index], "expected": float(str(expected[index])),
                "actual": float(str(actual[index])),
                "abs_err": float(err[index]), "allowed": float(allowed[index]),
            })
    return Comparison(
        ok=not bad.any(),
        max_abs_err=float(err_f.max(initial=0.0)),
        max_rel_err=float(rel.max(initial=0.0)),
        max_ulp=float(ulps.max(initial=0.0)),
        mismatches=int(bad.sum()),
        elements=int(e.size),
        unspecified=int((~compared).sum()),
        worst=worst,
        error_grid=grid(ratio) if bad.any() and e.ndim >= 2 else None,
    )


def _worst_text(w: dict[str, Any]) -> str:
    return (
        f"worst at {w['index']}: expected {w['expected']:.9g}, got {w['actual']:.9g} "
        f"(|err| {w['abs_err']:.3g} > allowed {w['allowed']:.3g})"
    )


def grid(ratio: np.ndarray) -> list[list[float]]:
    """|error|/allowed over the first 2-D slice (last two axes), max-pooled down to at most GRID×GRID."""
    plane = ratio[(0,) * (ratio.ndim - 2)] if ratio.ndim > 2 else ratio
    rows = np.array_split(np.arange(plane.shape[0]), min(GRID, plane.shape[0]))
    cols = np.array_split(np.arange(plane.shape[1]), min(GRID, plane.shape[1]))
    # every block's maximum in two reductions (a max over each block of rows, then of columns), NaN propagating
    # as max() does: the same cells as one max per block, without a fancy-indexed copy per cell
    blocks = np.maximum.reduceat(np.maximum.reduceat(plane, [r[0] for r in rows], axis=0), [c[0] for c in cols],
                                 axis=1)
    return [[float(min(v, 1e6)) for v in row] for row in blocks.tolist()]
