"""OpenVINO MatrixNonMaxSuppression-8: candidates with scores above ``score_threshold``, at most ``nms_top_k`` a class,
their scores decayed by the Matrix NMS steps 1-6 of matrix-non-max-suppression-8.rst, then the boxes whose decayed
score is above ``post_threshold``, at most ``keep_top_k`` a batch element; rows ``[class_id, decayed score, xmin,
ymin, xmax, ymax]`` as MulticlassNonMaxSuppression's (the same judge: the registry's ops/_multiclass.py).

Decay of candidate j (sorted by score, X[i, j] the IoU of i and j for i < j, 0 elsewhere; K_i the column max of X
at column i): min over i of exp((K_i^2 - X[i, j]^2) * gaussian_sigma) (gaussian) or (1 - X[i, j]) / (1 - K_i)
(linear). Left open, so admitted every way (``tie_groups``): the order of equal scores (it decides which of two is
decayed by the other), decayed scores within rounding of post_threshold, ``normalized`` false (no formula: the
plain IoU or pixel boxes one longer); equal scores at the ``nms_top_k``/``keep_top_k`` cut leave the result
unspecified. A decayed score is compared within its slack: the roundings of its decay (exp or the quotient, the
product) and of the IoUs it is made of (reference/_suppression.py's IoU slack through the decay's slope).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._suppression import LIMIT, UNIT, Geometry, TooMany
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "MatrixNonMaxSuppression", (8,),
    attributes=(Attribute("sort_result", "enum", default="none", values=("class", "score", "none")),
                Attribute("sort_result_across_batch", "bool", default=False),
                Attribute("output_type", "enum", default="i64", values=("i64", "i32")),
                Attribute("score_threshold", "float", default=0.0),
                Attribute("nms_top_k", "int", default=-1),
                Attribute("keep_top_k", "int", default=-1),
                Attribute("background_class", "int", default=-1),
                Attribute("normalized", "bool", default=True),
                Attribute("decay_function", "enum", default="linear", values=("gaussian", "linear")),
                Attribute("gaussian_sigma", "float", default=2.0),
                Attribute("post_threshold", "float", default=0.0)),
    inputs=(Port("boxes"), Port("scores")),
    outputs=(Port("selected_outputs", rank_of=None),
             Port("selected_indices", dtype="int64", dtype_attribute="output_type", rank_of=None),
             Port("selected_num", dtype="int64", dtype_attribute="output_type", rank_of=None)),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


@dataclass(frozen=True)
class Admissible:
    """As MulticlassNonMaxSuppression's (the registry's ops/_multiclass.py), with (class, box, score, slack) rows."""

    readings: tuple[tuple[frozenset, ...], ...]
    index_modes: tuple[str, ...]
    sort_result: str
    across_batch: bool
    boxes: np.ndarray
    scores: np.ndarray
    roisnum: None = None
    unspecified: bool = False
    why: str = ""
    decayed: bool = True


def _layout(shapes: list[tuple[int, ...]]) -> tuple[int, int, int]:
    if len(shapes) != 2:
        raise SpecViolation(f"MatrixNonMaxSuppression-8: takes 2 inputs, got {len(shapes)}")
    boxes, scores = tuple(shapes[0]), tuple(shapes[1])
    if len(boxes) != 3 or boxes[2] != 4 or len(scores) != 3 or scores[0] != boxes[0] or scores[2] != boxes[1]:
        raise SpecViolation(f"MatrixNonMaxSuppression-8: boxes [B, N, 4] and scores [B, C, N]; got {list(boxes)}, "
                            f"{list(scores)}")
    return boxes[0], scores[1], boxes[1]


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    """The upper bound of the rows (the text's "number of selected boxes")."""
    found = attributes_of(SCHEMA, since, attributes)
    b, c, n = _layout(input_shapes)
    per_class = n if found["nms_top_k"] < 0 else min(n, found["nms_top_k"])
    per_batch = per_class * c if found["keep_top_k"] < 0 else min(per_class * c, found["keep_top_k"])
    return [(b * per_batch, 6), (b * per_batch, 1), (b,)]


def _decayed(geometry: Geometry, order: list[int], scores: np.ndarray, found: dict[str, Any], u: float
             ) -> list[tuple[int, float, float]]:
    """(box, decayed score, slack) of each candidate, in ``order`` (steps 1-6)."""
    n = len(order)
    x = np.zeros((n, n))
    slack = np.zeros((n, n))
    for i in range(n):
        if i + 1 < n:
            found_ious = geometry.overlaps(order[i], np.array(order[i + 1:], dtype=np.int64), -1.0)
            x[i, i + 1:] = [o.iou for o in found_ious]
            slack[i, i + 1:] = [o.slack for o in found_ious]
    k = x.max(axis=0) if n else np.zeros(0)  # column-wise max: K_i, box i's largest IoU with a better box
    sigma = float(found["gaussian_sigma"])
    out = []
    for j in range(n):
        terms = []
        for i in range(n):
            if found["decay_function"] == "gaussian":
                d = math.exp((k[i] ** 2 - x[i, j] ** 2) * sigma)
                slope = 2 * abs(sigma) * d * (x[i, j] * slack[i, j] + k[i] * slack[:, i].max(initial=0.0))
            else:
                if k[i] >= 1.0:
                    raise TooMany  # 1 - K_i = 0: the linear decay divides by zero (identical boxes): unspecified
                d = (1 - x[i, j]) / (1 - k[i])
                slope = (slack[i, j] + d * slack[:, i].max(initial=0.0)) / (1 - k[i])
            terms.append((d, slope))
        d, slope = min(terms) if terms else (1.0, 0.0)
        s = float(scores[order[j]])
        out.append((order[j], s * d, abs(s) * (slope + 8 * u * d)))
    return out


def tie_groups(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> Admissible:
    found = attributes_of(SCHEMA, since, attributes)
    b, c, n = _layout([np.shape(x) for x in inputs])
    boxes, scores = np.asarray(inputs[0]), np.asarray(inputs[1])
    if boxes.dtype.name not in OV_FLOATS or scores.dtype != boxes.dtype:
        raise SpecViolation("MatrixNonMaxSuppression-8: boxes and scores of one floating-point type T")
    u = UNIT[boxes.dtype.name]
    common = dict(index_modes=("batch",), sort_result=found["sort_result"],
                  across_batch=bool(found["sort_result_across_batch"]), boxes=boxes, scores=scores)
    why, readings = "", []
    try:
        for offset in (0.0,) if found["normalized"] else (0.0, 1.0):
            per_batch = []
            for bi in range(b):
                geometry = Geometry(boxes[bi], "corner", offset)
                classes = []
                for ci in range(c):
                    if ci == found["background_class"]:
                        continue
                    row = scores[bi, ci].astype(np.float64)
                    cands = sorted((i for i in range(n) if row[i] > found["score_threshold"]), key=lambda i: -row[i])
                    top = found["nms_top_k"]
                    if 0 <= top < len(cands):
                        why = why or ("equal scores at the nms_top_k cut" if row[cands[top - 1]] == row[cands[top]]
                                      and top > 0 else "")
                        cands = cands[:top]
                    groups = [list(g) for _, g in itertools.groupby(cands, key=lambda i: row[i])]
                    options = set()
                    for perm in itertools.product(*[itertools.permutations(g) for g in groups]):
                        picks = _decayed(geometry, [i for g in perm for i in g], row, found, u)
                        kept = [[p for p in picks if p[1] - p[2] > found["post_threshold"]]]
                        near = [p for p in picks if abs(p[1] - found["post_threshold"]) <= p[2]]
                        for subset in itertools.product((False, True), repeat=len(near)):
                            chosen = [p for p in kept[0] if p not in near] + [p for p, on in zip(near, subset) if on]
                            options.add(frozenset((ci, p[0], p[1], p[2]) for p in chosen))
                        if len(options) > LIMIT:
                            raise TooMany
                    classes.append(options)
                merged_options = set()
                for combo in itertools.product(*classes) if classes else [()]:
                    merged = sorted(set().union(*combo), key=lambda p: -p[2])
                    keep = found["keep_top_k"]
                    if 0 <= keep < len(merged):
                        why = why or ("decayed scores within rounding at the keep_top_k cut"
                                      if keep > 0 and merged[keep - 1][2] - merged[keep - 1][3]
                                      <= merged[keep][2] + merged[keep][3] else "")
                        merged = merged[:keep]
                    merged_options.add(frozenset(merged))
                    if len(merged_options) > LIMIT:
                        raise TooMany
                per_batch.append(frozenset(merged_options))
            readings.append(tuple(per_batch))
    except TooMany:
        return Admissible((), **common, unspecified=True, why="too many alternatives, or a linear decay by 1 - 1")
    return Admissible(tuple(readings), **common, unspecified=bool(why), why=why)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = attributes_of(SCHEMA, since, attributes)
    ways = tie_groups(since, inputs, attributes)
    b, _, n = _layout([np.shape(x) for x in inputs])
    index_type = np.int32 if found["output_type"] == "i32" else np.int64
    rows, counts = [], [0] * b
    for bi in range(b):
        chosen = min(ways.readings[0][bi], key=sorted) if ways.readings else frozenset()
        mine = sorted(((bi, c, box, s) for c, box, s, _ in chosen), key=lambda r: (r[1], -r[3], r[2]))
        if ways.sort_result == "score":
            mine.sort(key=lambda r: (-r[3], r[1], r[2]))
        counts[bi] = len(mine)
        rows += mine
    if ways.across_batch and ways.sort_result != "none":
        rows.sort(key=(lambda r: (-r[3], r[0])) if ways.sort_result == "score" else (lambda r: (r[1], r[0])))
    boxes = np.asarray(inputs[0])
    out = np.zeros((len(rows), 6), dtype=boxes.dtype)
    index = np.zeros((len(rows), 1), dtype=index_type)
    for k, (bi, ci, box, score) in enumerate(rows):
        out[k] = [ci, score, *boxes[bi, box].tolist()]
        index[k] = bi * n + box
    masks = [np.ones(o.shape, bool) for o in (out, index, np.zeros(b))] if ways.unspecified else [None] * 3
    return [out, index, np.array(counts, dtype=index_type)], masks
