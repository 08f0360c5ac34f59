"""OpenVINO NonMaxSuppression-1, -3, -4, -5, -9: the greedy loop of each page (reference/_suppression.py) applied
"independently to each class of each batch element", at most ``max_output_boxes_per_class`` boxes a class.

- -1/-3/-4: keep the best box if its score is not "less than score_threshold", remove every box whose IoU with it
  "is greater than the iou_threshold". -5/-9: the same with a score decay ``func`` (Soft-NMS when
  ``soft_nms_sigma`` > 0; -5 still zeroes an IoU above the threshold, -9's formula has no threshold in soft mode).
- Output rows: -1/-3 ``min(num_boxes, max_output_boxes_per_class * num_classes)`` (which ignores the batches: a
  selection that does not fit leaves the output unspecified), -4 ``min(num_boxes, max) * num_batches *
  num_classes``, -5/-9 "number of selected boxes" or that upper bound with the rows after the selected ones -1.
- Order: ``sort_result_descending`` true sorts every selected box by score, descending (equal scores in any order);
  false keeps batch, then class, then each class's selection order.
- Readings (``tie_groups`` gives them all; evaluate returns the first): the omitted iou_threshold "0 meaning keep
  all boxes" (0 by the formula, or no suppression); -5/-9's zeroed score stays in B and is selected again when 0
  passes score_threshold (the literal loop), or the zeroed box is gone (suppression's intent).
The judging of these outputs is the registry's ops/_suppression.py: an output is correct when it is one admissible
selection in an admissible order, whatever the reference's own choice among them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._suppression import Geometry, Pick, Rule, TooMany, greedy
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

FLOATS = OV_FLOATS

SCHEMA = Schema(
    "openvino", "NonMaxSuppression", (1, 3, 4, 5, 9),
    attributes=(Attribute("box_encoding", "enum", default="corner", values=("corner", "center")),
                Attribute("sort_result_descending", "bool", default=True),
                Attribute("output_type", "enum", default="i64", values=("i64", "i32"), since=3)),
    inputs=(Port("boxes"), Port("scores"),
            Port("max_output_boxes_per_class", dtype="int64", dtypes=OV_INTEGERS, optional=True),
            Port("iou_threshold", dtype="float32", dtypes=FLOATS, optional=True),
            Port("score_threshold", dtype="float32", dtypes=FLOATS, optional=True),
            Port("soft_nms_sigma", dtype="float32", dtypes=FLOATS, optional=True, since=5)),
    outputs=(Port("selected_indices", dtype="int64", dtype_attribute="output_type", rank_of=None),
             Port("selected_scores", dtype="float32", since=5, rank_of=None),
             Port("valid_outputs", dtype="int64", dtype_attribute="output_type", since=5, rank_of=None)),
    types=((0, FLOATS),),
)
VERSIONS = SCHEMA.versions


@dataclass(frozen=True)
class Admissible:
    """Every result the text admits (the registry's ops/_suppression.py judges by it).

    ``readings``: per reading, per (batch, class), the set of admissible selections. ``rows``: the output's fixed
    (-1/-3/-4) or upper-bound (-5/-9) row count; ``dynamic``: -5/-9 may return the selected rows only.
    ``unspecified``: the text leaves the whole result open (too many alternatives, or -1/-3's shape too small)."""

    readings: tuple[dict[tuple[int, int], frozenset[tuple[Pick, ...]]], ...]
    descending: bool
    rows: int
    dynamic: bool
    scores_output: bool
    dtype: str
    unspecified: bool = False
    why: str = ""
    batches: int = 0
    classes: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def _scalar(x: Any, label: str, what: str, default: float, integer: bool) -> float:
    if x is None:
        return default
    a = np.asarray(x)
    if a.size != 1 or a.ndim > 1:
        raise SpecViolation(f"{label}: {what} is a scalar (or a 1-element 1D tensor), got shape {list(a.shape)}")
    if integer != (a.dtype.kind in "iu"):
        raise SpecViolation(f"{label}: {what} of type {a.dtype.name} is not an {'integer' if integer else 'float'}")
    return float(a.reshape(-1)[0])


def _geometry(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> tuple[dict, int, int, int]:
    label = f"NonMaxSuppression-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    most = 6 if since >= 5 else 5
    if not 2 <= len(shapes) <= most:
        raise SpecViolation(f"{label}: takes 2 to {most} inputs, got {len(shapes)}")
    boxes, scores = tuple(shapes[0]), tuple(shapes[1])
    if len(boxes) != 3 or boxes[2] != 4:
        raise SpecViolation(f"{label}: boxes must be [num_batches, num_boxes, 4], got {list(boxes)}")
    if len(scores) != 3 or scores[0] != boxes[0] or scores[2] != boxes[1]:
        raise SpecViolation(f"{label}: scores must be [num_batches, num_classes, num_boxes] = "
                            f"[{boxes[0]}, C, {boxes[1]}], got {list(scores)}")
    return found, boxes[0], scores[1], boxes[1]


def _rows(since: int, batches: int, classes: int, n: int, max_out: int) -> int:
    if since in (1, 3):
        return min(n, max_out * classes)
    return min(n, max_out) * batches * classes


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"NonMaxSuppression-{since}"
    _, b, c, n = _geometry(since, input_shapes, attributes)
    given = (input_values or {}).get(2)
    if len(input_shapes) > 2 and given is None:
        raise SpecViolation(f"{label}: max_output_boxes_per_class's value fixes the output's shape")
    max_out = max(0, int(_scalar(given, label, "max_output_boxes_per_class", 0, True)))
    rows = _rows(since, b, c, n, max_out)
    return [(rows, 3), (rows, 3), (1,)] if since >= 5 else [(rows, 3)]


def _rules(since: int, inputs: list[Any], label: str) -> list[Rule]:
    """One Rule per reading of the text."""
    given = [*inputs, *[None] * (6 - len(inputs))]
    max_out = max(0, int(_scalar(given[2], label, "max_output_boxes_per_class", 0, True)))
    iou = _scalar(given[3], label, "iou_threshold", 0.0, False)
    score = _scalar(given[4], label, "score_threshold", 0.0, False)
    sigma = _scalar(given[5], label, "soft_nms_sigma", 0.0, False) if since >= 5 else 0.0
    if sigma < 0:
        raise SpecViolation(f"{label}: soft_nms_sigma {sigma} is negative (exp(-0.5 iou^2 / sigma) would grow)")
    base = [Rule(iou, score, max_out, sigma, cut=since == 5 or sigma == 0.0)]
    if since >= 5 and score <= 0.0:  # the literal loop keeps a zeroed box in B: selected again when 0 passes
        base.append(Rule(iou, score, max_out, sigma, cut=base[0].cut, drop_zero=False))
    if given[3] is None:  # "default value 0 meaning keep all boxes"
        base += [Rule(r.iou_threshold, r.score_threshold, r.max_out, r.sigma, r.cut, r.drop_zero, keep_all=True)
                 for r in base]
    return base


def tie_groups(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> Admissible:
    """Every admissible result (``Admissible``)."""
    label = f"NonMaxSuppression-{since}"
    found, b, c, n = _geometry(since, [np.shape(x) for x in inputs], attributes)
    boxes, scores = np.asarray(inputs[0]), np.asarray(inputs[1])
    if boxes.dtype.name not in FLOATS or scores.dtype.name not in FLOATS:
        raise SpecViolation(f"{label}: boxes and scores are floating-point (T), got {boxes.dtype}/{scores.dtype}")
    rules = _rules(since, inputs, label)
    rows = _rows(since, b, c, n, rules[0].max_out)
    common = dict(descending=bool(found["sort_result_descending"]), rows=rows, dynamic=since >= 5,
                  scores_output=since >= 5, dtype=boxes.dtype.name, batches=b, classes=c)
    readings = []
    try:
        for rule in rules:
            reading = {}
            for bi in range(b):
                geometry = Geometry(boxes[bi], found["box_encoding"])
                for ci in range(c):
                    reading[(bi, ci)] = frozenset(greedy(geometry, scores[bi, ci], rule))
            readings.append(reading)
    except TooMany:
        return Admissible((), **common, unspecified=True, why="more tie orders and rounding branches than "
                          "the enumeration's limit")
    most = max((sum(max(len(s) for s in r[k]) for k in r) for r in readings), default=0)
    if since in (1, 3) and most > rows:
        return Admissible(tuple(readings), **common, unspecified=True,
                          why="more boxes selected than the text's shape min(num_boxes, max * num_classes) holds")
    return Admissible(tuple(readings), **common)


def _first(selections: frozenset[tuple[Pick, ...]]) -> tuple[Pick, ...]:
    """A canonical selection: the lower box index first among ties (one admissible result among others)."""
    return min(selections, key=lambda s: [(-p.score, p.box) for p in s] + [(1.0, -1)])


def assemble(ways: Admissible, output_type: str, scores_output: bool
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """The outputs of one admissible result (the canonical one) padded to ``ways.rows`` (NMSRotated shares it)."""
    index_type = np.int32 if output_type == "i32" else np.int64
    picked = []
    if ways.readings:
        for (bi, ci), selections in sorted(ways.readings[0].items()):
            picked += [(bi, ci, p.box, p.score) for p in _first(selections)]
    if ways.descending:
        picked.sort(key=lambda r: -r[3])  # stable: batch, class, selection order among equal scores
    picked = picked[:ways.rows]
    indices = np.full((ways.rows, 3), -1, dtype=index_type)
    scores = np.full((ways.rows, 3), -1.0, dtype=np.float32)
    for k, (bi, ci, box, score) in enumerate(picked):
        indices[k] = (bi, ci, box)
        scores[k] = (bi, ci, score)
    mask = np.ones((ways.rows, 3), dtype=bool) if ways.unspecified else None
    if not scores_output:
        return [indices], [mask]
    valid = np.array([len(picked)], dtype=index_type)
    return [indices, scores, valid], [mask, mask, np.ones(1, dtype=bool) if ways.unspecified else None]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = attributes_of(SCHEMA, since, attributes)
    return assemble(tie_groups(since, inputs, attributes), found.get("output_type", "i64"), since >= 5)
