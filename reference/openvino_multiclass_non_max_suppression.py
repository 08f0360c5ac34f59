"""OpenVINO MulticlassNonMaxSuppression-8 and -9: the greedy loop with an adaptive threshold (reference/_suppression.py)
per batch element and class, at most ``nms_top_k`` candidates a class, at most ``keep_top_k`` boxes a batch element,
``background_class`` skipped; outputs ``[class_id, score, xmin, ymin, xmax, ymax]`` rows, their indices in the
flattened boxes and the count per batch element (multiclass-non-max-suppression-8/9.rst).

- Step 7: after a box is kept, ``adaptive_threshold *= nms_eta`` while ``nms_eta < 1`` and it is above 0.5; step 8
  zeroes the score of a box whose IoU with the kept one is greater than it.
- Order: ``sort_result`` class (class id ascending; equal classes in any order), score (descending; equal scores in
  any order), none (no order); per batch element (``sort_result_across_batch`` false: batch after batch, as
  ``selected_num`` counts them) or across batches.
- Left open and so admitted every way (``tie_groups``): ties of equal scores, IoUs within rounding of the threshold,
  ``normalized`` false (the text defines no formula: the same IoU, or pixel boxes whose sides are one longer), the
  zeroed box of step 8 staying in B (selected again with score 0 when 0 passes score_threshold, or gone), -9's
  three-input format's index (the box's place in the flattened ``[num_classes, num_boxes]`` boxes, or in
  ``num_boxes``). Equal scores at the ``nms_top_k`` or ``keep_top_k`` cut leave the result unspecified.
The judging is the registry's ops/_multiclass.py.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._suppression import LIMIT, Geometry, Rule, TooMany, greedy
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "MulticlassNonMaxSuppression", (8, 9),
    attributes=(Attribute("sort_result", "enum", default="none", values=("class", "score", "none")),
                Attribute("sort_result_across_batch", "bool", default=False),
                Attribute("output_type", "enum", default="i64", values=("i64", "i32")),
                Attribute("iou_threshold", "float", default=0.0),
                Attribute("score_threshold", "float", default=0.0),
                Attribute("nms_top_k", "int", default=-1),
                Attribute("keep_top_k", "int", default=-1),
                Attribute("background_class", "int", default=-1),
                Attribute("normalized", "bool", default=True),
                Attribute("nms_eta", "float", default=1.0)),
    inputs=(Port("boxes"), Port("scores"), Port("roisnum", dtype="int64", dtypes=("int32", "int64"), optional=True,
                                                   since=9)),
    outputs=(Port("selected_outputs", rank_of=None),
             Port("selected_indices", dtype="int64", dtype_attribute="output_type", rank_of=None),
             Port("selected_num", dtype="int64", dtype_attribute="output_type", rank_of=None)),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions

#: one batch element's selection: (class, box position, exact score) of each row
Chosen = frozenset[tuple[int, int, float]]


@dataclass(frozen=True)
class Admissible:
    """Per reading, per batch element, the admissible selections (``Chosen`` sets); what orders and the rows'
    values the judge checks against (the registry's ops/_multiclass.py)."""

    readings: tuple[tuple[frozenset[Chosen], ...], ...]
    index_modes: tuple[str, ...]  # "batch" (b * N + box), "class" (c * N + box), "box" (the box's place in N)
    sort_result: str
    across_batch: bool
    boxes: np.ndarray
    scores: np.ndarray
    roisnum: np.ndarray | None
    unspecified: bool = False
    why: str = ""


def _layout(since: int, shapes: list[tuple[int, ...]]) -> tuple[int, int, int, bool]:
    """(batches, classes, boxes, three-input format) from the input shapes."""
    label = f"MulticlassNonMaxSuppression-{since}"
    if len(shapes) == 3 and since >= 9:
        boxes, scores, rois = (tuple(s) for s in shapes)
        if len(boxes) != 3 or boxes[2] != 4 or scores != boxes[:2] or len(rois) != 1:
            raise SpecViolation(f"{label}: the three-input format is boxes [C, N, 4], scores [C, N], roisnum [B]; "
                                f"got {list(boxes)}, {list(scores)}, {list(rois)}")
        return rois[0], boxes[0], boxes[1], True
    if len(shapes) != 2:
        raise SpecViolation(f"{label}: takes {'2 or 3' if since >= 9 else '2'} inputs, got {len(shapes)}")
    boxes, scores = tuple(shapes[0]), tuple(shapes[1])
    if len(boxes) != 3 or boxes[2] != 4 or len(scores) != 3 or scores[0] != boxes[0] or scores[2] != boxes[1]:
        raise SpecViolation(f"{label}: boxes [B, N, 4] and scores [B, C, N]; got {list(boxes)}, {list(scores)}")
    return boxes[0], scores[1], boxes[1], False


def _checked(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    found = attributes_of(SCHEMA, since, attributes)
    if not 0.0 <= found["nms_eta"] <= 1.0:
        raise SpecViolation(f"MulticlassNonMaxSuppression-{since}: nms_eta {found['nms_eta']} outside [0, 1]")
    return found


def _upper(b: int, c: int, n: int, found: dict[str, Any]) -> int:
    per_class = n if found["nms_top_k"] < 0 else min(n, found["nms_top_k"])
    per_batch = per_class * c if found["keep_top_k"] < 0 else min(per_class * c, found["keep_top_k"])
    return b * per_batch


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    """The upper bound of the rows (the text's outputs are "number of selected boxes" rows: a dynamic dimension)."""
    b, c, n, _ = _layout(since, input_shapes)
    rows = _upper(b, c, n, _checked(since, attributes))
    return [(rows, 6), (rows, 1), (b,)]


def _segments(b: int, n: int, rois: np.ndarray | None, label: str) -> list[range]:
    if rois is None:
        return [range(n)] * b
    counts = [int(v) for v in np.asarray(rois).reshape(-1)]
    if any(v < 0 for v in counts) or sum(counts) != n:
        raise SpecViolation(f"{label}: roisnum {counts} must be non-negative and sum to num_boxes {n}")
    starts = np.cumsum([0, *counts])
    return [range(int(starts[i]), int(starts[i + 1])) for i in range(b)]


def _cut(picks: list[tuple[int, int, float]], k: int) -> tuple[list[tuple[int, int, float]], bool]:
    """The ``k`` best by score (k < 0: all), and whether equal scores straddle the cut."""
    if k < 0 or len(picks) <= k:
        return picks, False
    ranked = sorted(picks, key=lambda p: -p[2])
    return ranked[:k], k > 0 and ranked[k - 1][2] == ranked[k][2]


def tie_groups(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> Admissible:
    label = f"MulticlassNonMaxSuppression-{since}"
    found = _checked(since, attributes)
    b, c, n, three = _layout(since, [np.shape(x) for x in inputs])
    boxes, scores = np.asarray(inputs[0]), np.asarray(inputs[1])
    if boxes.dtype.name not in OV_FLOATS or scores.dtype != boxes.dtype:
        raise SpecViolation(f"{label}: boxes and scores of one floating-point type T, got {boxes.dtype}/{scores.dtype}")
    rois = np.asarray(inputs[2]) if three else None
    segments = _segments(b, n, rois, label)
    offsets = (0.0,) if found["normalized"] else (0.0, 1.0)
    drops = (True,) if found["score_threshold"] > 0 else (True, False)
    common = dict(index_modes=("class", "box") if three else ("batch",), sort_result=found["sort_result"],
                  across_batch=bool(found["sort_result_across_batch"]), boxes=boxes, scores=scores, roisnum=rois)
    readings, why = [], ""
    try:
        for offset, drop in itertools.product(offsets, drops):
            rule = Rule(found["iou_threshold"], found["score_threshold"], n + 1, drop_zero=drop,
                        eta=found["nms_eta"])
            per_batch = []
            for bi, segment in enumerate(segments):
                classes = []
                for ci in range(c):
                    if ci == found["background_class"]:
                        continue
                    own = boxes[ci] if three else boxes[bi]
                    row = scores[ci] if three else scores[bi, ci]
                    positions = np.array(list(segment), dtype=np.int64)
                    fed, tied = _cut([(ci, int(p), float(row[p])) for p in positions], found["nms_top_k"])
                    why = why or ("equal scores at the nms_top_k cut" if tied else "")
                    keep = np.array(sorted(p for _, p, _ in fed), dtype=np.int64)
                    geometry = Geometry(own[keep], "corner", offset)
                    classes.append([frozenset((ci, int(keep[p.box]), p.score) for p in sel)
                                    for sel in greedy(geometry, row[keep], rule)])
                options = set()
                for combo in itertools.product(*classes) if classes else [()]:
                    merged, tied = _cut(sorted(set().union(*combo)), found["keep_top_k"])
                    why = why or ("equal scores at the keep_top_k cut" if tied else "")
                    options.add(frozenset(merged))
                    if len(options) > LIMIT:
                        raise TooMany
                per_batch.append(frozenset(options))
            readings.append(tuple(per_batch))
    except TooMany:
        return Admissible((), **common, unspecified=True, why="more alternatives than the enumeration's limit")
    return Admissible(tuple(readings), **common, unspecified=bool(why), why=why)


def _order(rows: list[tuple[int, int, int, float]], how: str) -> list[tuple[int, int, int, float]]:
    if how == "class":
        return sorted(rows, key=lambda r: (r[1], -r[3], r[2]))
    if how == "score":
        return sorted(rows, key=lambda r: (-r[3], r[1], r[2]))
    return rows


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = _checked(since, attributes)
    ways = tie_groups(since, inputs, attributes)
    b, _, n, three = _layout(since, [np.shape(x) for x in inputs])
    index_type = np.int32 if found["output_type"] == "i32" else np.int64
    rows: list[tuple[int, int, int, float]] = []
    counts = [0] * b
    for bi in range(b):
        chosen = min(ways.readings[0][bi], key=lambda s: sorted(s)) if ways.readings else frozenset()
        mine = [(bi, ci, box, score) for ci, box, score in chosen]
        counts[bi] = len(mine)
        rows += _order(sorted(mine), ways.sort_result) if not ways.across_batch else mine
    if ways.across_batch:
        rows = _order(rows, ways.sort_result)
    boxes = np.asarray(inputs[0])
    out = np.zeros((len(rows), 6), dtype=boxes.dtype)
    index = np.zeros((len(rows), 1), dtype=index_type)
    for k, (bi, ci, box, score) in enumerate(rows):
        coords = boxes[ci, box] if three else boxes[bi, box]
        out[k] = [ci, score, *coords.tolist()]
        index[k] = ci * n + box if three else bi * n + box
    mask = None if not ways.unspecified else np.ones(out.shape, dtype=bool)
    return ([out, index, np.array(counts, dtype=index_type)],
            [mask, None if mask is None else np.ones(index.shape, bool), None if mask is None else np.ones(b, bool)])
