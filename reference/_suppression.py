"""Greedy non-maximum suppression as the OpenVINO texts describe it, with every result the texts admit.

The greedy loop (non-max-suppression-*.rst, "Detailed description") takes the box of highest score, keeps it if its
score passes ``score_threshold``, and suppresses (or, with Soft-NMS, decays) the rest by their IoU with it. Three
things leave the result open, and ``admissible`` enumerates each of them rather than choosing:

- **ties**: "the box with highest score" when several share it; each candidate is tried (which one is taken can
  change what is suppressed, not only the order);
- **rounding near a threshold**: an IoU (or a decayed score) computed in the boxes' type T whose exact value lies
  within the rounding slack of its threshold can fall on either side; both branches are tried. Where every step of
  the IoU is exact in T (dyadic boxes: the differences, areas, intersection, union and quotient all representable),
  there is no rounding and the text's own comparison decides (``iou > iou_threshold`` suppresses, a score equal to
  ``score_threshold`` is kept);
- **readings** of the text (the callers': -5/-9's zero-scored boxes, the iou_threshold default).

A class's result is a tuple of ``Pick(box, score, slack)``: the box index, its exact score when kept (the input
score, or the decayed one in float64) and the rounding slack of that score in T.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

#: unit roundoff of each box type (the IoU and the decays are computed in it)
UNIT = {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8, "float32": 2.0 ** -24, "float64": 2.0 ** -53}
#: roundings an IoU takes in T (corner conversion, two differences per side, two products, a sum, a difference, a
#: quotient: 9), doubled for a runtime's own order of operations
IOU_ROUNDINGS = 18
#: the most results one class may admit before the enumeration gives up (the class is then unspecified)
LIMIT = 256


@dataclass(frozen=True)
class Pick:
    box: int
    score: float
    slack: float = 0.0


class TooMany(Exception):
    """More admissible results than ``LIMIT``: the caller leaves the output unspecified."""


def corners(box: np.ndarray, encoding: str) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """``[ymin, xmin, ymax, xmax]`` of one box, exactly (Fractions of its float values). ``corner``: "any
    diagonal pair" ([y1, x1, y2, x2]), so min/max per axis; ``center``: ``[x_center, y_center, width, height]``."""
    v = [Fraction(float(c)) for c in box]
    if encoding == "center":
        xc, yc, w, h = v
        y1, y2, x1, x2 = yc - h / 2, yc + h / 2, xc - w / 2, xc + w / 2
    else:
        y1, x1, y2, x2 = v
    return min(y1, y2), min(x1, x2), max(y1, y2), max(x1, x2)


def _exact_in(values: list[Fraction], dtype: str) -> bool:
    kind = np.float32 if dtype in ("float32", "bfloat16", "float16") else np.float64
    for v in values:
        f = float(v)
        if Fraction(f) != v or (dtype == "float32" and Fraction(float(kind(f))) != v):
            return False
        if dtype in ("float16", "bfloat16") and Fraction(float(np.asarray(f).astype(dtype_np(dtype)))) != v:
            return False
    return True


def dtype_np(dtype: str) -> np.dtype:
    if dtype == "bfloat16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(dtype)


@dataclass(frozen=True)
class Overlap:
    iou: float  # exact value, rounded once to float64
    slack: float  # how far rounding in T can move it (0 where every step is exact)


def overlap(a: tuple[Fraction, ...], b: tuple[Fraction, ...], dtype: str, scale: float) -> Overlap:
    """IoU of two corner boxes (``0`` where the union is empty: the text is silent, and no box then overlaps).

    ``scale``: the largest coordinate magnitude of the two boxes as given; the slack is ``IOU_ROUNDINGS`` roundings
    of the coordinates relative to the smallest positive side involved (a difference of nearby coordinates loses
    what they share)."""
    ih = max(Fraction(0), min(a[2], b[2]) - max(a[0], b[0]))
    iw = max(Fraction(0), min(a[3], b[3]) - max(a[1], b[1]))
    sides = [a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1]]
    inter = ih * iw
    union = sides[0] * sides[1] + sides[2] * sides[3] - inter
    value = inter / union if union > 0 else Fraction(0)
    steps = [*a, *b, *sides, ih, iw, sides[0] * sides[1], sides[2] * sides[3], inter, union, value]
    if _exact_in(steps, dtype):
        return Overlap(float(value), 0.0)
    positive = [float(s) for s in (*sides, ih, iw) if s > 0]
    smallest = min(positive) if positive else 1.0
    u = UNIT[dtype]
    return Overlap(float(value), IOU_ROUNDINGS * u * (1.0 + scale / smallest) * max(float(value), u))


def decisions(value: float, slack: float, threshold: float, above: bool) -> tuple[bool, ...]:
    """The outcomes of ``value > threshold`` (``above``) or ``value >= threshold`` that rounding admits."""
    exact = value > threshold if above else value >= threshold
    if slack == 0.0 or abs(value - threshold) > slack:
        return (exact,)
    return (exact, not exact)


@dataclass(frozen=True)
class Rule:
    """How one chosen box treats the others: ``suppress`` by ``iou > iou_threshold`` (hard NMS), optionally
    ``sigma`` > 0 decaying the rest by exp(-0.5 iou^2 / sigma) (Soft-NMS), ``cut`` whether Soft-NMS still zeroes
    an IoU above the threshold (-5: yes; -9: no), ``drop_zero`` whether a zeroed box leaves the candidates."""

    iou_threshold: float
    score_threshold: float
    max_out: int
    sigma: float = 0.0
    cut: bool = True
    drop_zero: bool = True
    keep_all: bool = False  # the iou_threshold default's "keep all boxes" reading
    eta: float = 1.0  # MulticlassNonMaxSuppression's adaptive threshold: x eta after each kept box while > 0.5


class Geometry:
    """One batch element's boxes: corners in float64 for the bulk, exact Fractions where a decision is close."""

    def __init__(self, boxes: np.ndarray, encoding: str, offset: float = 0.0) -> None:
        """``offset``: added to each side's extent (the +1 of pixel boxes that are not normalized)."""
        self.raw, self.encoding, self.dtype, self.offset = boxes, encoding, boxes.dtype.name, offset
        b = boxes.astype(np.float64)
        if encoding == "center":
            xc, yc, w, h = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
            y1, y2, x1, x2 = yc - h / 2, yc + h / 2, xc - w / 2, xc + w / 2
        else:
            y1, x1, y2, x2 = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
        self.c = np.stack([np.minimum(y1, y2), np.minimum(x1, x2), np.maximum(y1, y2) + offset,
                           np.maximum(x1, x2) + offset], 1)
        self.scale = np.max(np.abs(b), axis=1) if len(b) else np.zeros(0)
        self.exact: dict[int, tuple[Fraction, ...]] = {}

    def overlaps(self, i: int, others: np.ndarray, threshold: float) -> list[Overlap]:
        """IoU of box ``i`` with each of ``others``; exact where it lies near ``threshold`` (module docstring)."""
        a, b = self.c[i], self.c[others]
        ih = np.maximum(0.0, np.minimum(a[2], b[:, 2]) - np.maximum(a[0], b[:, 0]))
        iw = np.maximum(0.0, np.minimum(a[3], b[:, 3]) - np.maximum(a[1], b[:, 1]))
        inter = ih * iw
        union = (a[2] - a[0]) * (a[3] - a[1]) + (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) - inter
        with np.errstate(divide="ignore", invalid="ignore"):
            iou = np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0)
        sides = np.stack([np.full(len(b), a[2] - a[0]), np.full(len(b), a[3] - a[1]), b[:, 2] - b[:, 0],
                          b[:, 3] - b[:, 1], ih, iw], 1)
        smallest = np.min(np.where(sides > 0, sides, np.inf), axis=1)
        smallest = np.where(np.isfinite(smallest), smallest, 1.0)
        u = UNIT[self.dtype]
        scale = np.maximum(self.scale[i], self.scale[others])
        slack = IOU_ROUNDINGS * u * (1.0 + scale / smallest) * np.maximum(iou, u)
        found = []
        for k, j in enumerate(others.tolist()):
            if abs(iou[k] - threshold) <= 2 * slack[k] + 1e-12:  # close: the exact value and whether T rounds
                found.append(overlap(self._exact(i), self._exact(j), self.dtype, float(scale[k])))
            else:
                found.append(Overlap(float(iou[k]), float(slack[k])))
        return found

    def _exact(self, i: int) -> tuple[Fraction, ...]:
        if i not in self.exact:
            y1, x1, y2, x2 = corners(self.raw[i], self.encoding)
            extra = Fraction(self.offset)
            self.exact[i] = (y1, x1, y2 + extra, x2 + extra)
        return self.exact[i]


def greedy(geometry: Geometry, scores: np.ndarray, rule: Rule) -> set[tuple[Pick, ...]]:
    """Every selection of one class the text admits (module docstring): a depth-first walk over the choices."""
    found: set[tuple[Pick, ...]] = set()
    u = UNIT[geometry.dtype]
    start = tuple(Pick(i, float(s)) for i, s in enumerate(scores.astype(np.float64)) if not math.isnan(s))
    stack: list[tuple[tuple[Pick, ...], tuple[Pick, ...], float]] = [(start, (), rule.iou_threshold)]
    while stack:
        if len(found) > LIMIT or len(stack) > LIMIT * 4:
            raise TooMany
        cands, chosen, threshold = stack.pop()
        if len(chosen) >= rule.max_out or not cands:
            found.add(chosen)
            continue
        best = max(c.score for c in cands)
        top = max(c.slack for c in cands if c.score == best)
        for pick in [c for c in cands if c.score + c.slack >= best - top]:  # the tied candidates
            for keep in decisions(pick.score, pick.slack, rule.score_threshold, above=False):
                if not keep:
                    found.add(chosen)
                    continue
                rest = [c for c in cands if c.box != pick.box]
                adapted = threshold * rule.eta if rule.eta < 1.0 and threshold > 0.5 else threshold
                stack += [(after, (*chosen, pick), adapted)
                          for after in _after(geometry, pick, rest, rule, u, adapted)]
    return found


def _after(geometry: Geometry, pick: Pick, rest: list[Pick], rule: Rule, u: float, threshold: float
           ) -> list[tuple[Pick, ...]]:
    """Every candidate list the chosen ``pick`` leaves (one per combination of near-threshold IoUs)."""
    if rule.keep_all or not rest:
        return [tuple(rest)]
    ious = geometry.overlaps(pick.box, np.array([c.box for c in rest], dtype=np.int64), threshold)
    # an adapted threshold is itself a product rounded in the runtime's type
    rounding = u * abs(threshold) if threshold != rule.iou_threshold else 0.0
    results: list[tuple[Pick, ...]] = [()]
    for c, o in zip(rest, ious):
        outcomes: list[Pick | None] = []
        for over in decisions(o.iou, o.slack + rounding, threshold, above=True):
            if over and (rule.sigma == 0.0 or rule.cut):
                outcomes.append(None if rule.drop_zero else Pick(c.box, 0.0, 0.0))
            elif rule.sigma > 0.0:
                f = math.exp(-0.5 * o.iou * o.iou / rule.sigma)
                # the decay's own roundings (exp and three products) and the IoU's slack through its slope
                slack = f * c.slack + abs(c.score) * f * (8 * u + o.iou / rule.sigma * o.slack)
                outcomes.append(Pick(c.box, c.score * f, slack))
            else:
                outcomes.append(c)
        choice = list(dict.fromkeys(outcomes))
        results = [(*r, x) if x is not None else r for r in results for x in choice]
        if len(results) > LIMIT:
            raise TooMany
    return results
