"""NMSRotated-13's reference: its rotated IoU against an area counted on a grid (corners written from the page's
[x_center, y_center, width, height, angle]), its selection against a direct greedy loop, and planted errors (the
angle's direction flipped, the threshold off, a kept duplicate)."""

from __future__ import annotations

import math

import numpy as np

from conformance.ops._suppression import check
from conformance_reference import openvino_nms_rotated as rotated


def _inside(box: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Points inside a box turned by +angle (y down: clockwise on the image), by its own frame's half-extents."""
    xc, yc, w, h, a = (float(v) for v in box)
    dx, dy = x - xc, y - yc
    u = dx * math.cos(a) + dy * math.sin(a)  # the point in the box's frame (the inverse turn)
    v = -dx * math.sin(a) + dy * math.cos(a)
    return (np.abs(u) <= w / 2) & (np.abs(v) <= h / 2)


def grid_iou(a: np.ndarray, b: np.ndarray, steps: int = 600) -> float:
    lo = min(a[0], b[0], a[1], b[1]) - 4
    hi = max(a[0], b[0], a[1], b[1]) + 4
    g = np.linspace(lo, hi, steps)
    x, y = np.meshgrid(g, g)
    ia, ib = _inside(a, x, y), _inside(b, x, y)
    inter = np.count_nonzero(ia & ib)
    union = np.count_nonzero(ia | ib)
    return inter / union if union else 0.0


def test_rotated_iou_is_the_area_on_a_grid() -> None:
    rng = np.random.default_rng(2)
    for _ in range(25):
        a = np.array([*rng.uniform(0, 2, 2), *rng.uniform(0.5, 2, 2), rng.uniform(-1.5, 1.5)])
        b = np.array([*rng.uniform(0, 2, 2), *rng.uniform(0.5, 2, 2), rng.uniform(-1.5, 1.5)])
        got = rotated.rotated_iou(rotated.corners(a, True), rotated.corners(b, True))
        assert abs(got - grid_iou(a, b)) < 0.02
    square, turned = np.array([0, 0, 2, 2, 0.0]), np.array([0, 0, 2, 2, math.pi / 4])
    octagon = 8 * (math.sqrt(2) - 1)
    want = octagon / (8 - octagon)
    assert abs(rotated.rotated_iou(rotated.corners(square, True), rotated.corners(turned, True)) - want) < 1e-12


def _loop(boxes: np.ndarray, scores: np.ndarray, max_out: int, thr: float, score_thr: float, clockwise: bool
          ) -> list[tuple[int, int, int, float]]:
    rows = []
    for b in range(boxes.shape[0]):
        quads = [rotated.corners(x, clockwise) for x in boxes[b]]
        for c in range(scores.shape[1]):
            left = {i: float(scores[b, c, i]) for i in range(boxes.shape[1])}
            kept = []
            while left and len(kept) < max_out:
                best = max(left, key=lambda i: (left[i], -i))
                s = left.pop(best)
                if s < score_thr:
                    break
                kept.append((best, s))
                for i in list(left):
                    if rotated.rotated_iou(quads[i], quads[best]) > thr:
                        del left[i]
            rows += [(b, c, i, s) for i, s in kept]
    return rows


def _outputs(rows: list[tuple[int, int, int, float]]) -> list[np.ndarray]:
    idx = np.array([r[:3] for r in rows], np.int64).reshape(-1, 3)
    sc = np.array([[r[0], r[1], r[3]] for r in rows], np.float32).reshape(-1, 3)
    return [idx, sc, np.array([len(rows)], np.int64)]


def _case(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    b = np.concatenate([rng.uniform(0, 6, (1, 12, 2)), rng.uniform(0.5, 3, (1, 12, 2)),
                        rng.uniform(-1.5, 1.5, (1, 12, 1))], 2).astype(np.float32)
    return b, rng.uniform(0, 1, (1, 2, 12)).astype(np.float32)


def test_selection_is_the_loop_and_planted_errors_fail() -> None:
    flipped_caught = 0
    for seed in range(12):
        boxes, scores = _case(seed)
        for clockwise in (True, False):
            inputs = [boxes, scores, np.array(5, np.int64), np.array(0.3, np.float32), np.array(0.1, np.float32)]
            attributes = {"clockwise": clockwise, "sort_result_descending": False}
            ways = rotated.tie_groups(13, inputs, attributes)
            right = _loop(boxes, scores, 5, 0.3, 0.1, clockwise)
            assert check(ways, _outputs(right)) is None
            flipped = _loop(boxes, scores, 5, 0.3, 0.1, not clockwise)
            if [r[:3] for r in flipped] != [r[:3] for r in right]:
                flipped_caught += 1
                assert check(ways, _outputs(flipped)) is not None
            off = _loop(boxes, scores, 5, 0.05, 0.1, clockwise)
            if off != right:
                assert check(ways, _outputs(off)) is not None
    assert flipped_caught
    twins = np.array([[[0, 0, 2, 1, 0.3], [0, 0, 2, 1, 0.3]]], np.float32)
    inputs = [twins, np.array([[[0.5, 0.5]]], np.float32), np.array(2, np.int64), np.array(0.5, np.float32),
              np.array(0.0, np.float32)]
    ways = rotated.tie_groups(13, inputs, {})
    assert check(ways, _outputs([(0, 0, 1, 0.5)])) is None and check(ways, _outputs([(0, 0, 0, 0.5)])) is None
    assert check(ways, _outputs([(0, 0, 0, 0.5), (0, 0, 1, 0.5)])) is not None
