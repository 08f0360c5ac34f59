"""The heatmap a failing comparison records: |error|/allowed around its worst element, and where that is.

A report reads records only, so what the record holds is what a reader can see. The first 2-D slice pooled down
(what was recorded before) could leave the worst element out of the picture entirely (``[0,2,29,19]`` is not in
slice ``[0,0]``), and pooling blurs single-ULP errors into their neighbours. So the grid is the worst element's
own slice (the last two axes), one cell per element: the whole slice when it fits ``GRID``×``GRID``, else the
``GRID``×``GRID`` window around the worst element. ``where`` says which slice and window that is, and lists the
other slices with mismatches (at most ``SLICES`` of them, most mismatches first) so they stay reachable; the
record stays bounded whatever the output's size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

GRID = 24
#: The other slices with mismatches a record lists (the most mismatches first).
SLICES = 12
#: A ratio above this is recorded as this (an infinite ratio is "way over", the colour scale ends at 100).
CAP = 1e6


def heatmap(ratio: np.ndarray, at: Sequence[int] | None = None,
            bad: np.ndarray | None = None) -> tuple[list[list[float]], dict[str, Any]]:
    """(grid, where) for an array of at least two dimensions: ``ratio`` is |error|/allowed per element, ``at`` the
    worst element's index (default: the largest ratio), ``bad`` the mismatch mask (default: ratio > 1).

    ``where``: ``slice`` (the leading indices), ``rows``/``cols`` (the window, [start, stop) in the slice),
    ``plane`` (the slice's shape), ``worst`` (the worst element's row and column in the slice), ``mismatches``
    (in the slice) and ``in_window``; for more than two dimensions also ``slices`` ([{at, mismatches}] of up to
    ``SLICES`` slices with mismatches) and ``slices_total`` (how many there are).
    """
    ratio = np.asarray(ratio, dtype=np.float64)
    bad = ratio > 1 if bad is None else np.asarray(bad, bool)
    if at is None:
        at = np.unravel_index(int(np.argmax(np.nan_to_num(ratio, nan=np.inf))), ratio.shape)
    at = [int(i) for i in at]
    lead, (row, col) = tuple(at[:-2]), at[-2:]
    plane, plane_bad = ratio[lead], bad[lead]
    r0, c0 = _start(row, plane.shape[0]), _start(col, plane.shape[1])
    rows, cols = slice(r0, r0 + GRID), slice(c0, c0 + GRID)
    window = plane[rows, cols]
    where: dict[str, Any] = {
        "slice": list(lead), "rows": [r0, r0 + window.shape[0]], "cols": [c0, c0 + window.shape[1]],
        "plane": [int(n) for n in plane.shape], "worst": [row, col],
        "mismatches": int(plane_bad.sum()), "in_window": int(plane_bad[rows, cols].sum()),
    }
    if ratio.ndim > 2:
        where.update(_slices(bad))
    # NaN stays NaN (the page colours it apart); min() would keep it, but say so rather than rely on it
    return [[v if v != v else float(min(v, CAP)) for v in line] for line in window.tolist()], where


def grid(ratio: np.ndarray) -> list[list[float]]:
    """The heatmap's grid alone (error models that record no ``where``)."""
    return heatmap(ratio)[0]


def _start(index: int, size: int) -> int:
    """The window's first row (or column): centred on ``index``, inside the slice."""
    return 0 if size <= GRID else min(max(index - GRID // 2, 0), size - GRID)


def _slices(bad: np.ndarray) -> dict[str, Any]:
    counts = bad.reshape(-1, bad.shape[-2] * bad.shape[-1]).sum(axis=1)
    hit = np.flatnonzero(counts)
    # the most mismatches first; equal counts in index order (a stable sort of the negated counts)
    top = hit[np.argsort(-counts[hit], kind="stable")][:SLICES]
    lead = bad.shape[:-2]
    return {"slices": [{"at": [int(i) for i in np.unravel_index(int(k), lead)], "mismatches": int(counts[k])}
                       for k in top],
            "slices_total": int(hit.size)}
