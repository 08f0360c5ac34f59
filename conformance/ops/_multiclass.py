"""How MulticlassNonMaxSuppression's outputs are judged: one admissible selection per batch element, in an admissible
order (reference/openvino_multiclass_non_max_suppression.py enumerates them, ``tie_groups``).

A run passes when, for one reading and one index convention, ``selected_num`` counts each batch element's rows
(batch after batch unless ``sort_result_across_batch``), each row's index names a box of its batch element whose
class, score and coordinates the row copies exactly, each batch element's (class, box, score) set is one of its
admissible selections, and the rows are in the order ``sort_result`` asks (class ascending, or score descending;
ties in any order; none: any order).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.ops._admissible import AdmissibleSelection


def _where(ways: Any, mode: str, index: int) -> tuple[int, int | None, int] | None:
    """(batch, class or None, box position) an index names under ``mode``, None when it names no box."""
    n = ways.boxes.shape[1]
    if mode == "batch":
        b, box = divmod(index, n)
        return (b, None, box) if 0 <= b < ways.boxes.shape[0] else None
    c, box = divmod(index, n) if mode == "class" else (None, index)
    if not 0 <= box < n or (c is not None and not 0 <= c < ways.boxes.shape[0]):
        return None
    starts = np.cumsum([0, *[int(v) for v in ways.roisnum.reshape(-1)]])
    b = int(np.searchsorted(starts, box, side="right") - 1)
    return b, c, box


def _rows(ways: Any, mode: str, out: np.ndarray, idx: np.ndarray) -> list[tuple[int, int, int, float]] | str:
    rows = []
    three = ways.roisnum is not None
    for k in range(out.shape[0]):
        found = _where(ways, mode, int(idx[k, 0]))
        cls = out[k, 0]
        if found is None or not float(cls).is_integer():
            return f"row {k}: index {int(idx[k, 0])} / class {cls} names no box"
        b, c, box = found
        ci = int(cls)
        if (c is not None and c != ci) or not 0 <= ci < (ways.scores.shape[0] if three else ways.scores.shape[1]):
            return f"row {k}: class {ci} is not the index's"
        score = ways.scores[ci, box] if three else ways.scores[b, ci, box]
        if getattr(ways, "decayed", False):  # MatrixNonMaxSuppression: the decayed score, judged by the selection
            score = out[k, 1]
        coords = ways.boxes[ci, box] if three else ways.boxes[b, box]
        if not (np.array_equal(out[k, 2:].astype(np.float64), coords.astype(np.float64))
                and float(out[k, 1]) == float(score)):
            return f"row {k}: score/coordinates {out[k, 1:].tolist()} are not box {box}'s ({float(score)}, " \
                   f"{coords.tolist()})"
        rows.append((b, ci, box, float(score)))
    return rows


def _ordered(rows: list[tuple[int, int, int, float]], how: str) -> bool:
    if how == "class":
        return all(a[1] <= b[1] for a, b in zip(rows, rows[1:]))
    if how == "score":
        return all(a[3] >= b[3] for a, b in zip(rows, rows[1:]))
    return True


def _member(got: list[tuple[int, int, float]], options: Any, decayed: bool) -> bool:
    """Whether a batch element's rows are one admissible selection: exactly, or (decayed scores, options of
    (class, box, score, slack)) the same boxes with each score within its slack."""
    if not decayed:
        return frozenset(got) in options
    key = sorted((c, box) for c, box, _ in got)
    for option in options:
        if sorted((p[0], p[1]) for p in option) != key:
            continue
        want = {(p[0], p[1]): p for p in option}
        if all(abs(s - want[(c, box)][2]) <= want[(c, box)][3] for c, box, s in got):
            return True
    return False


def check(ways: Any, outputs: list) -> str | None:
    out, idx, num = (np.asarray(o) for o in outputs[:3])
    if out.ndim != 2 or out.shape[1] != 6 or idx.shape != (out.shape[0], 1) or num.ndim != 1:
        return f"outputs of shapes {list(out.shape)}, {list(idx.shape)}, {list(num.shape)}: not [n, 6], [n, 1], [B]"
    counts = [int(v) for v in num]
    if sum(counts) != out.shape[0]:
        return f"selected_num {counts} sums to {sum(counts)}, not the {out.shape[0]} rows"
    if ways.unspecified:
        return None
    failures = []
    for mode in ways.index_modes:
        rows = _rows(ways, mode, out, idx)
        if isinstance(rows, str):
            failures.append(rows)
            continue
        batches = [r[0] for r in rows]
        if [batches.count(b) for b in range(len(counts))] != counts:
            failures.append(f"selected_num {counts} does not count the rows' batch elements")
            continue
        if not ways.across_batch and batches != sorted(batches):
            failures.append("sort_result_across_batch false: rows are not batch after batch")
            continue
        groups = [rows[sum(counts[:b]):sum(counts[:b + 1])] for b in range(len(counts))]
        if not (all(_ordered(g, ways.sort_result) for g in groups) if not ways.across_batch
                else _ordered(rows, ways.sort_result)):
            failures.append(f"rows are not in sort_result {ways.sort_result} order")
            continue
        for reading in ways.readings:
            decayed = getattr(ways, "decayed", False)
            wrong = [b for b in range(len(counts))
                     if not _member([(c, box, s) for bb, c, box, s in rows if bb == b], reading[b], decayed)]
            if not wrong:
                return None
            b = wrong[0]
            got = sorted((c, box) for bb, c, box, _ in rows if bb == b)
            example = sorted((p[0], p[1]) for p in min(reading[b], key=sorted)) if reading[b] else []
            failures.append(f"batch {b}: selected (class, box) {got} is no admissible selection (e.g. {example})")
    return failures[0] if failures else "no admissible reading"


class Selection(AdmissibleSelection):
    """Every output judged jointly as one admissible result (module docstring)."""

    rule = "exact rows and indices, any admissible tie order"
    check = staticmethod(check)
