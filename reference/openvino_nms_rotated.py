"""OpenVINO NMSRotated-13: NonMaxSuppression-5's greedy loop (hard, no Soft-NMS) with the IoU of rotated boxes
``[x_center, y_center, width, height, angle]`` (sort/nms-rotated-13.rst): the corners turned by the angle in radians
(``clockwise`` true: a positive angle turns clockwise), the intersection polygon's area by the shoelace formula,
``rotated_iou = intersection / (area_1 + area_2 - intersection)``. Everything else - outputs, padding, order, ties,
the zeroed score of step 7 - is NonMaxSuppression-5's (reference/openvino_non_max_suppression.py) and is judged by
the same model (the registry's ops/_suppression.py).

No step of a rotated IoU is exact in T (the angle's sine and cosine round), so a decision is admitted either way
when the exact IoU (float64 polygons) lies within ``ROTATED_ROUNDINGS`` roundings of the coordinates (relative to the
smallest side) of the threshold.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import openvino_non_max_suppression as nms
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._suppression import UNIT, Geometry, Overlap, Rule, TooMany, greedy
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "NMSRotated", (13,),
    attributes=(Attribute("sort_result_descending", "bool", default=True),
                Attribute("output_type", "enum", default="i64", values=("i64", "i32")),
                Attribute("clockwise", "bool", default=True)),
    inputs=(Port("boxes"), Port("scores"),
            Port("max_output_boxes_per_class", dtype="int64", dtypes=OV_INTEGERS),
            Port("iou_threshold", dtype="float32", dtypes=OV_FLOATS),
            Port("score_threshold", dtype="float32", dtypes=OV_FLOATS)),
    outputs=(Port("selected_indices", dtype="int64", dtype_attribute="output_type", rank_of=None),
             Port("selected_scores", dtype="float32", rank_of=None),
             Port("valid_outputs", dtype="int64", dtype_attribute="output_type", rank_of=None)),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions
#: roundings of a rotated IoU: sine, cosine, the corners' products and sums, the clipping's intersections, the
#: shoelace sums, the quotient; doubled for a runtime's own order
ROTATED_ROUNDINGS = 64


def corners(box: np.ndarray, clockwise: bool) -> np.ndarray:
    """The 4 corners of ``[xc, yc, w, h, angle]``, in the order the shoelace and the clipping walk them.

    The text names no orientation of the axes; boxes of images have y pointing down, where a turn that looks
    clockwise on the image is the positive (x towards y) rotation: ``clockwise`` true turns by +angle
    (docs/spec-notes.md)."""
    xc, yc, w, h, angle = (float(v) for v in box)
    t = angle if clockwise else -angle
    c, s = math.cos(t), math.sin(t)
    local = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return np.array([(xc + dx * c - dy * s, yc + dx * s + dy * c) for dx, dy in local])


def _clip(subject: list[tuple[float, float]], a: np.ndarray, b: np.ndarray) -> list[tuple[float, float]]:
    """Sutherland-Hodgman: the part of ``subject`` left of the directed edge a->b."""
    def side(p: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    out = []
    for k, p in enumerate(subject):
        q = subject[(k + 1) % len(subject)]
        sp, sq = side(p), side(q)
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0):
            f = sp / (sp - sq)
            out.append((p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1])))
    return out


def _area(poly: list[tuple[float, float]] | np.ndarray) -> float:
    pts = [tuple(p) for p in poly]
    return abs(sum(pts[k][0] * pts[(k + 1) % len(pts)][1] - pts[(k + 1) % len(pts)][0] * pts[k][1]
                   for k in range(len(pts)))) / 2 if len(pts) >= 3 else 0.0


def rotated_iou(a: np.ndarray, b: np.ndarray) -> float:
    """The text's steps 1-6 on two corner quadrilaterals (counter-clockwise)."""
    poly = [tuple(p) for p in a]
    for k in range(4):
        if not poly:
            break
        poly = _clip(poly, b[k], b[(k + 1) % 4])
    inter = _area(poly)
    union = _area(a) + _area(b)
    return inter / (union - inter) if union - inter > 0 else 0.0


class RotatedGeometry(Geometry):
    """A batch element's rotated boxes for the greedy walk (reference/_suppression.py)."""

    def __init__(self, boxes: np.ndarray, clockwise: bool) -> None:
        self.dtype = boxes.dtype.name
        self.quads = [corners(box, clockwise) for box in boxes]
        b = boxes.astype(np.float64)
        self.scale = np.max(np.abs(b[:, :4]), axis=1) if len(b) else np.zeros(0)
        self.side = np.min(np.abs(b[:, 2:4]), axis=1) if len(b) else np.zeros(0)

    def overlaps(self, i: int, others: np.ndarray, threshold: float) -> list[Overlap]:
        u = UNIT[self.dtype]
        found = []
        for j in others.tolist():
            iou = rotated_iou(self.quads[i], self.quads[j])
            smallest = max(min(self.side[i], self.side[j]), u)
            scale = max(self.scale[i], self.scale[j])
            found.append(Overlap(iou, ROTATED_ROUNDINGS * u * (1.0 + scale / smallest) * max(iou, u)))
        return found


def _geometry(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> tuple[dict, int, int, int]:
    found = attributes_of(SCHEMA, since, attributes)
    if len(shapes) != 5:
        raise SpecViolation(f"NMSRotated-13: takes 5 inputs (all required), got {len(shapes)}")
    boxes, scores = tuple(shapes[0]), tuple(shapes[1])
    if len(boxes) != 3 or boxes[2] != 5:
        raise SpecViolation(f"NMSRotated-13: boxes must be [num_batches, num_boxes, 5], got {list(boxes)}")
    if len(scores) != 3 or scores[0] != boxes[0] or scores[2] != boxes[1]:
        raise SpecViolation(f"NMSRotated-13: scores must be [{boxes[0]}, C, {boxes[1]}], got {list(scores)}")
    return found, boxes[0], scores[1], boxes[1]


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _, b, c, n = _geometry(since, input_shapes, attributes)
    given = (input_values or {}).get(2)
    if given is None:
        raise SpecViolation("NMSRotated-13: max_output_boxes_per_class's value fixes the output's shape")
    max_out = max(0, int(np.asarray(given).reshape(-1)[0]))
    rows = min(n, max_out) * b * c
    return [(rows, 3), (rows, 3), (1,)]


def tie_groups(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> nms.Admissible:
    found, b, c, n = _geometry(since, [np.shape(x) for x in inputs], attributes)
    boxes, scores = np.asarray(inputs[0]), np.asarray(inputs[1])
    if boxes.dtype.name not in OV_FLOATS or scores.dtype.name not in OV_FLOATS:
        raise SpecViolation("NMSRotated-13: boxes and scores are floating-point (T)")
    values = [float(np.asarray(x).reshape(-1)[0]) if np.asarray(x).size == 1 else None for x in inputs[2:]]
    if None in values or np.asarray(inputs[2]).dtype.kind not in "iu":
        raise SpecViolation("NMSRotated-13: max_output_boxes_per_class (integer) and the thresholds are scalars")
    max_out, iou, score = max(0, int(values[0])), values[1], values[2]
    rules = [Rule(iou, score, max_out)] + ([Rule(iou, score, max_out, drop_zero=False)] if score <= 0 else [])
    common = dict(descending=bool(found["sort_result_descending"]), rows=min(n, max_out) * b * c, dynamic=True,
                  scores_output=True, dtype=boxes.dtype.name, batches=b, classes=c)
    readings = []
    try:
        for rule in rules:
            reading = {}
            for bi in range(b):
                geometry = RotatedGeometry(boxes[bi], bool(found["clockwise"]))
                for ci in range(c):
                    reading[(bi, ci)] = frozenset(greedy(geometry, scores[bi, ci], rule))
            readings.append(reading)
    except TooMany:
        return nms.Admissible((), **common, unspecified=True, why="more alternatives than the enumeration's limit")
    return nms.Admissible(tuple(readings), **common)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = attributes_of(SCHEMA, since, attributes)
    return nms.assemble(tie_groups(since, inputs, attributes), found.get("output_type", "i64"), scores_output=True)
