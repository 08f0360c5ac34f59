"""The ``index`` error model: integer outputs that point into the input (e.g. the position of a window's maximum).

An index equal to the reference's passes. Where the spec does not say which of several equal maxima wins, an
index that differs is still accepted when it is one of its window's taps (``taps``: per output element the
tap indices, in the op's index convention, -1 for padding, and the values there) and the value there equals the
window's value (the reference's value output): the record counts these as ``ties``. Anything else is a mismatch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from conformance.compare.heatmap import heatmap
from conformance.compare.values import WORST, Comparison, not_comparable
from conformance.dtypes import dtype_mismatch, dtype_name

#: (tap indices in the op's convention, tap values), both shaped (*output.shape, taps); None when unknown.
Taps = Callable[[], "tuple[np.ndarray, np.ndarray] | None"]


def compare_indices(
    expected: np.ndarray,
    actual: Any,
    values: np.ndarray | None,
    taps: Taps | None,
    unspecified: np.ndarray | None = None,
    name: str = "indices",
) -> Comparison:
    unusable = not_comparable(expected, actual, name)
    if unusable is not None:
        return unusable
    if actual.dtype.kind not in "iu":
        return Comparison(False, dtype_mismatch(expected, actual, name), elements=int(expected.size))
    compared = np.ones(expected.shape, bool) if unspecified is None else ~np.asarray(unspecified, bool)
    got, want = actual.astype(np.int64), expected.astype(np.int64)
    differs = (got != want) & compared
    # the windows' taps are asked for only when an index differs (the oracle's window walk)
    found = taps() if differs.any() and values is not None and taps is not None else None
    ties = np.zeros(expected.shape, bool) if found is None else _ties(got, differs, values, *found)
    bad = differs & ~ties
    err = np.where(bad, np.abs(got.astype(np.float64) - want.astype(np.float64)), 0.0)
    result = Comparison(
        ok=not bad.any(), max_abs_err=float(err.max(initial=0.0)), mismatches=int(bad.sum()),
        elements=int(expected.size), unspecified=int((~compared).sum()), ties=int(ties.sum()),
    )
    if bad.any():
        positions = [tuple(int(v) for v in flat) for flat in np.argwhere(bad)[:WORST]]
        result.worst = [{"index": list(i), "expected": int(want[i]), "actual": int(got[i]),
                         "abs_err": float(err[i]), "allowed": 0.0} for i in positions]
        # 2 = a wrong index (the heatmap's scale is |error|/allowed, > 1 is out of bound)
        if bad.ndim >= 2:
            result.error_grid, result.grid_at = heatmap(bad.astype(np.float64) * 2.0, positions[0], bad)
        w = result.worst[0]
        result.reason = (f"{name}: {result.mismatches} of {result.elements} indices differ and point at no other "
                         f"maximum of their window; first at {w['index']}: expected {w['expected']}, got "
                         f"{w['actual']}")
    if dtype_name(actual.dtype) != dtype_name(expected.dtype):
        result.ok, result.reason = False, dtype_mismatch(expected, actual, name)
    return result


def _ties(actual: np.ndarray, differs: np.ndarray, values: np.ndarray, tap_index: np.ndarray,
          tap_value: np.ndarray) -> np.ndarray:
    """True where a differing index is a tap of its window holding the same value as the window's value."""
    ties = np.zeros(actual.shape, bool)
    for idx in map(tuple, np.argwhere(differs)):
        hits = np.nonzero(tap_index[idx] == actual[idx])[0]
        want = np.float64(values[idx])
        # several taps may share an index (OpenVINO MaxPool's axis: indices modulo the trailing dimensions)
        for held in tap_value[idx][hits].astype(np.float64):
            if held == want or (np.isnan(held) and np.isnan(want)):
                ties[idx] = True
                break
    return ties
