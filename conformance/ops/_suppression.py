"""How a non-maximum suppression's outputs are judged: as one admissible selection in an admissible order.

The reference (``tie_groups`` of reference/openvino_non_max_suppression.py) enumerates every selection the text
admits per batch and class (ties of equal scores, IoUs and decayed scores within rounding of their thresholds,
the text's readings); ``Selection`` accepts a run's outputs when, for one reading, every class's selected rows are
one of its admissible selections, in the order ``sort_result_descending`` asks (false: batch, class, then the
class's selection order; true: scores non-increasing, equal ones in any order), the rows after the selected ones
are -1 (the upper-bound shape; -5/-9 may also return the selected rows alone), and ``valid_outputs`` counts them.
A box index, batch or class is compared exactly; a score within its slack (the decays' roundings) plus one
rounding to the output type. A wrong threshold, sort direction or decay changes a selection or a score and fails.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.ops._admissible import AdmissibleSelection

#: one rounding of a float64 score to the float32 output (relative)
OUTPUT_ROUNDING = 2.0 ** -23


def _score_ok(actual: float | None, exact: float, slack: float) -> bool:
    return actual is None or abs(actual - exact) <= slack + OUTPUT_ROUNDING * abs(exact)


def _match(got: list[tuple[int, float | None]], options: Any, ordered: bool) -> list[tuple[float, float]] | None:
    """Per row of ``got`` the (exact score, slack) of the first admissible selection it is, else None."""
    for option in sorted(options, key=len):
        if len(option) != len(got):
            continue
        if ordered:
            pairs = list(zip(got, option))
        else:
            by_box = {p.box: p for p in option}
            if {b for b, _ in got} != set(by_box) or len({b for b, _ in got}) != len(got):
                continue
            pairs = [(g, by_box[g[0]]) for g in got]
        if all(g[0] == p.box and _score_ok(g[1], p.score, p.slack) for g, p in pairs):
            return [(p.score, p.slack) for _, p in pairs]
    return None


def _fits(reading: dict, rows: list[tuple[int, int, int, float | None]], descending: bool) -> str | None:
    """None when ``rows`` are one admissible result of ``reading``, else why not."""
    keys = [(b, c) for b, c, _, _ in rows]
    unknown = sorted(set(keys) - set(reading))
    if unknown:
        return f"rows name batch/class {unknown[0]}, which the inputs do not have"
    if not descending and keys != sorted(keys):
        return "sort_result_descending false: rows are not in batch, then class order"
    exact: dict[int, tuple[float, float]] = {}
    for key, options in sorted(reading.items()):
        at = [k for k, r in enumerate(rows) if (r[0], r[1]) == key]
        got = [(rows[k][2], rows[k][3]) for k in at]
        found = _match(got, options, ordered=not descending)
        if found is None:
            example = min(options, key=lambda s: [(-p.score, p.box) for p in s] + [(1.0, -1)])
            shown = [(b, None if s is None else round(s, 6)) for b, s in got]
            return (f"batch {key[0]} class {key[1]}: selected (box, score) {shown} is no admissible selection "
                    f"({len(options)} admissible, e.g. {[(p.box, round(p.score, 6)) for p in example]})")
        exact.update(zip(at, found))
    if descending:
        for k in range(len(rows) - 1):
            (s0, e0), (s1, e1) = exact[k], exact[k + 1]
            if s1 > s0 + e0 + e1:
                return f"sort_result_descending true: row {k + 1}'s score {s1:.9g} follows {s0:.9g}"
    return None


def check(ways: Any, outputs: list) -> str | None:
    """None when ``outputs`` are one result the text admits (module docstring), else why not."""
    idx = outputs[0]
    if not isinstance(idx, np.ndarray) or idx.ndim != 2 or idx.shape[1] != 3:
        return f"selected_indices is not a [rows, 3] array: {getattr(idx, 'shape', type(idx).__name__)}"
    idx = idx.astype(np.int64)
    scores, shape = None, None
    if ways.scores_output:
        scores, valid = np.asarray(outputs[1], dtype=np.float64), np.asarray(outputs[2])
        if scores.shape != idx.shape or valid.size != 1:
            return f"selected_scores {list(scores.shape)} / valid_outputs {list(valid.shape)} do not fit the indices"
        n = int(valid.reshape(-1)[0])
        if idx.shape[0] not in (n, ways.rows) or not 0 <= n <= idx.shape[0]:
            return f"{idx.shape[0]} rows for {n} valid outputs (the selected rows alone, or {ways.rows})"
        if not (scores[n:] == -1).all():
            return "selected_scores rows after the valid ones are not -1"
        if not (scores[:n, :2] == idx[:n, :2]).all():
            return "selected_scores' batch and class columns are not selected_indices'"
    else:
        filled = np.flatnonzero((idx == -1).all(axis=1))
        n = int(filled[0]) if filled.size else idx.shape[0]
        if idx.shape[0] != ways.rows:  # the content is judged all the same: a second finding is not hidden
            shape = f"{idx.shape[0]} rows, the text's shape has {ways.rows} (-1 after the selected ones)"
    if not (idx[n:] == -1).all():
        return f"selected_indices rows after the {n} selected ones are not all -1"
    if ways.unspecified:
        return shape
    rows = [(int(b), int(c), int(box), None if scores is None else float(scores[k, 2]))
            for k, (b, c, box) in enumerate(idx[:n])]
    reasons = [_fits(reading, rows, ways.descending) for reading in ways.readings]
    content = None if any(r is None for r in reasons) else reasons[0]
    return "; ".join(r for r in (shape, content) if r) or None


class Selection(AdmissibleSelection):
    """Every output of a non-maximum suppression, judged jointly as one admissible result (module docstring)."""

    rule = "exact indices, scores within their decay slack, any admissible tie order"
    check = staticmethod(check)
