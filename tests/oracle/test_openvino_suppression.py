"""The suppression family's reference against direct greedy loops written from the pages, and its judge against
planted errors: a threshold off, a wrong sort direction, a missing Soft-NMS decay, a wrong tie or padding."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conformance.ops._suppression import check
from conformance_reference import openvino_non_max_suppression as nms


def _iou(a: np.ndarray, b: np.ndarray, center: bool) -> float:
    """IoU from the page's definitions, in float64: corners as any diagonal pair, or [xc, yc, w, h]."""
    def box(v: np.ndarray) -> tuple[float, float, float, float]:
        v = [float(x) for x in v]
        if center:
            xc, yc, w, h = v
            v = [yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2]
        return min(v[0], v[2]), min(v[1], v[3]), max(v[0], v[2]), max(v[1], v[3])
    ya, xa, Ya, Xa = box(a)
    yb, xb, Yb, Xb = box(b)
    inter = max(0.0, min(Ya, Yb) - max(ya, yb)) * max(0.0, min(Xa, Xb) - max(xa, xb))
    union = (Ya - ya) * (Xa - xa) + (Yb - yb) * (Xb - xb) - inter
    return inter / union if union > 0 else 0.0


def loop_nms(boxes: np.ndarray, scores: np.ndarray, max_out: int, iou_thr: float, score_thr: float,
             sigma: float = 0.0, center: bool = False, descending: bool = False, cut: bool = True
             ) -> list[tuple[int, int, int, float]]:
    """The pages' loop, per batch and class: take the best box, stop below score_threshold, decay or drop the
    rest (-1/3/4: drop IoU > threshold; -5: s *= func(iou); a zeroed box leaves B). Then the text's order."""
    rows = []
    for b in range(boxes.shape[0]):
        for c in range(scores.shape[1]):
            left = {i: float(scores[b, c, i]) for i in range(boxes.shape[1])}
            kept: list[tuple[int, float]] = []
            while left and len(kept) < max_out:
                best = max(left, key=lambda i: (left[i], -i))
                s = left.pop(best)
                if s < score_thr:
                    break
                kept.append((best, s))
                for i in list(left):
                    iou = _iou(boxes[b, i], boxes[b, best], center)
                    if sigma == 0.0:
                        if iou > iou_thr:
                            del left[i]
                    elif cut and iou > iou_thr:
                        del left[i]
                    else:
                        left[i] *= math.exp(-0.5 * iou * iou / sigma)
            rows += [(b, c, i, s) for i, s in kept]
    if descending:
        rows.sort(key=lambda r: -r[3])
    return rows


def _inputs(rng: np.random.Generator, b: int, n: int, c: int, center: bool = False) -> tuple[np.ndarray, ...]:
    if center:
        xy = rng.uniform(0, 4, (b, n, 2))
        wh = rng.uniform(0.5, 2, (b, n, 2))
        boxes = np.concatenate([xy, wh], axis=2).astype(np.float32)
    else:
        boxes = rng.uniform(0, 4, (b, n, 4)).astype(np.float32)
    return boxes, rng.uniform(0, 1, (b, c, n)).astype(np.float32)


def _run(version: int, boxes: np.ndarray, scores: np.ndarray, max_out: int, iou: float, score: float,
         sigma: float | None = None, **attributes: object) -> tuple[list[np.ndarray], object]:
    inputs = [boxes, scores, np.array(max_out, np.int64), np.array(iou, np.float32), np.array(score, np.float32)]
    if sigma is not None:
        inputs.append(np.array(sigma, np.float32))
    outputs, _ = nms.evaluate(version, inputs, dict(attributes))
    return outputs, nms.tie_groups(version, inputs, dict(attributes))


def _rows(outputs: list[np.ndarray]) -> list[tuple[int, int, int]]:
    return [tuple(int(v) for v in r) for r in outputs[0] if r[0] != -1]


def _as_outputs(rows: list[tuple[int, int, int, float]], total: int, version: int) -> list[np.ndarray]:
    """A runtime's outputs holding ``rows`` (padded to ``total``)."""
    idx = np.full((total, 3), -1, np.int64)
    sc = np.full((total, 3), -1.0, np.float32)
    for k, (b, c, i, s) in enumerate(rows):
        idx[k], sc[k] = (b, c, i), (b, c, s)
    return [idx] if version < 5 else [idx, sc, np.array([len(rows)], np.int64)]


@pytest.mark.parametrize("version", [1, 3, 4, 5, 9])
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("descending", [False, True])
def test_hard_nms_is_the_pages_loop(version: int, center: bool, descending: bool) -> None:
    rng = np.random.default_rng(100 + version)
    for _ in range(8):
        boxes, scores = _inputs(rng, 2, 9, 3, center)
        outputs, ways = _run(version, boxes, scores, 4, 0.3, 0.2,
                             box_encoding="center" if center else "corner", sort_result_descending=descending)
        loop = loop_nms(boxes, scores, 4, 0.3, 0.2, center=center, descending=descending)
        if version in (1, 3) and len(loop) > ways.rows:
            assert ways.unspecified  # the text's shape cannot hold them
            continue
        assert _rows(outputs) == [r[:3] for r in loop]
        assert check(ways, _as_outputs(loop, ways.rows, version)) is None
        if version >= 5:  # the selected rows alone (a dynamic shape) are admissible too
            assert check(ways, _as_outputs(loop, len(loop), version)) is None


@pytest.mark.parametrize("version", [5, 9])
def test_soft_nms_is_the_pages_loop(version: int) -> None:
    rng = np.random.default_rng(7 + version)
    for _ in range(8):
        boxes, scores = _inputs(rng, 1, 8, 2)
        outputs, ways = _run(version, boxes, scores, 5, 0.6, 0.05, 0.4, sort_result_descending=False)
        loop = loop_nms(boxes, scores, 5, 0.6, 0.05, sigma=0.4, cut=version == 5)
        assert _rows(outputs) == [r[:3] for r in loop]
        np.testing.assert_allclose(outputs[1][:len(loop), 2], [r[3] for r in loop], rtol=1e-6)
        assert check(ways, _as_outputs(loop, ways.rows, version)) is None


SIX = np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                 [0, 100, 1, 101]]], np.float32)
SIX_SCORES = np.array([[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]], np.float32)


@pytest.mark.parametrize("version", [1, 3, 4, 5, 9])
def test_six_boxes(version: int) -> None:
    outputs, _ = _run(version, SIX, SIX_SCORES, 3, 0.5, 0.0, sort_result_descending=False)
    assert _rows(outputs) == [(0, 0, 3), (0, 0, 0), (0, 0, 5)]


def test_planted_threshold_off_fails() -> None:
    """A runtime whose iou_threshold is off by 0.1, or that suppresses at IoU equal to it, is caught."""
    rng = np.random.default_rng(5)
    caught = 0
    for _ in range(10):
        boxes, scores = _inputs(rng, 1, 10, 2)
        _, ways = _run(5, boxes, scores, 5, 0.3, 0.0, sort_result_descending=False)
        wrong = loop_nms(boxes, scores, 5, 0.4, 0.0)
        if wrong != loop_nms(boxes, scores, 5, 0.3, 0.0):
            caught += 1
            assert check(ways, _as_outputs(wrong, ways.rows, 5)) is not None
    assert caught
    at = np.array([[[0, 0, 1, 1], [0, 0, 1, 0.5]]], np.float32)  # IoU exactly 0.5, every step exact
    _, ways = _run(5, at, np.array([[[0.9, 0.8]]], np.float32), 2, 0.5, 0.0)
    assert check(ways, _as_outputs([(0, 0, 0, 0.9)], 2, 5)) is not None  # '>=' suppresses: not the text
    assert check(ways, _as_outputs([(0, 0, 0, 0.9), (0, 0, 1, 0.8)], 2, 5)) is None


def test_planted_sort_direction_fails() -> None:
    rng = np.random.default_rng(11)
    boxes, scores = _inputs(rng, 2, 8, 3)
    _, ways = _run(5, boxes, scores, 3, 0.3, 0.0, sort_result_descending=True)
    right = loop_nms(boxes, scores, 3, 0.3, 0.0, descending=True)
    assert check(ways, _as_outputs(right, ways.rows, 5)) is None
    assert check(ways, _as_outputs(right[::-1], ways.rows, 5)) is not None  # ascending
    per_class = loop_nms(boxes, scores, 3, 0.3, 0.0)  # not sorted across batches
    assert check(ways, _as_outputs(per_class, ways.rows, 5)) is not None


def test_planted_missing_decay_fails() -> None:
    outputs, ways = _run(9, SIX, SIX_SCORES, 6, 1.0, 0.0, 0.5, sort_result_descending=False)
    right = loop_nms(SIX, SIX_SCORES, 6, 1.0, 0.0, sigma=0.5, cut=False)
    assert check(ways, _as_outputs(right, ways.rows, 9)) is None
    undecayed = [(b, c, i, float(SIX_SCORES[b, c, i])) for b, c, i, _ in right]
    assert check(ways, _as_outputs(undecayed, ways.rows, 9)) is not None
    halved = loop_nms(SIX, SIX_SCORES, 6, 1.0, 0.0, sigma=0.25, cut=False)  # sigma off by 2
    assert check(ways, _as_outputs(halved, ways.rows, 9)) is not None


def test_ties_accept_every_admissible_choice_only() -> None:
    boxes = np.array([[[0, 0, 1, 1], [0, 0, 1, 1], [0, 5, 1, 6]]], np.float32)
    scores = np.array([[[0.5, 0.5, 0.5]]], np.float32)
    _, ways = _run(5, boxes, scores, 3, 0.5, 0.0, sort_result_descending=False)
    for first, other in ((0, 2), (1, 2), (2, 0), (2, 1)):
        assert check(ways, _as_outputs([(0, 0, first, 0.5), (0, 0, other, 0.5)], 3, 5)) is None
    both = [(0, 0, 0, 0.5), (0, 0, 1, 0.5), (0, 0, 2, 0.5)]  # the duplicate not suppressed
    assert check(ways, _as_outputs(both, 3, 5)) is not None


def test_padding_and_valid_outputs_are_checked() -> None:
    outputs, ways = _run(5, SIX, SIX_SCORES, 3, 0.5, 0.0)
    assert check(ways, outputs) is None
    bad = [outputs[0].copy(), outputs[1], np.array([2], np.int64)]
    assert check(ways, bad) is not None
    zeros = [np.where(outputs[0] == -1, 0, outputs[0]), outputs[1], outputs[2]]
    assert check(ways, zeros) is None or outputs[2][0] == ways.rows
    outputs4, ways4 = _run(4, SIX, SIX_SCORES, 6, 0.5, 0.0)
    assert check(ways4, outputs4) is None
    assert check(ways4, [outputs4[0][:3]]) is not None  # the text's shape is fixed for -4


def test_iou_near_threshold_admits_both_decisions() -> None:
    """A box whose IoU with the kept one is within rounding of the threshold (not exact in float32) may go
    either way; one far from it may not."""
    a = np.array([0, 0, 1, 1], np.float32)
    b = np.array([0, 0, 0.7, 0.9], np.float32)  # area 0.7f * 0.9f: no float32, the IoU rounds
    thr = float(np.float32(_iou(a, b, False)))
    boxes, scores = np.stack([a, b])[None], np.array([[[0.9, 0.8]]], np.float32)
    _, ways = _run(5, boxes, scores, 2, thr, 0.0, sort_result_descending=False)
    assert check(ways, _as_outputs([(0, 0, 0, 0.9)], 2, 5)) is None
    assert check(ways, _as_outputs([(0, 0, 0, 0.9), (0, 0, 1, 0.8)], 2, 5)) is None
    _, far = _run(5, boxes, scores, 2, thr + 1e-4, 0.0, sort_result_descending=False)
    assert check(far, _as_outputs([(0, 0, 0, 0.9)], 2, 5)) is not None


def test_an_ir_boolean_written_as_1_or_0_reads_as_a_boolean() -> None:
    """The pages write sort_result_descending="1" (OpenVINO's reader takes 1/0 for a boolean): the case loader reads
    a bool attribute's 1/0 as True/False, other kinds as before."""
    from conformance.suite.irxml import attribute_value
    assert attribute_value("1", "bool") is True and attribute_value("0", "bool") is False
    assert attribute_value("1") == [1] and attribute_value("true", "bool") is True


# MulticlassNonMaxSuppression-8/9: boxes as [xmin, ymin, xmax, ymax], per batch element and class, then keep_top_k

from conformance.ops._multiclass import check as check_multiclass  # noqa: E402
from conformance_reference import openvino_multiclass_non_max_suppression as multiclass  # noqa: E402


def loop_multiclass(boxes: np.ndarray, scores: np.ndarray, iou_thr: float, score_thr: float, eta: float = 1.0,
                    nms_top_k: int = -1, keep_top_k: int = -1, background: int = -1
                    ) -> list[list[tuple[int, int, float]]]:
    """The page's steps 1-9 per batch element and class (a zeroed box leaves B), nms_top_k candidates a class,
    then the keep_top_k best of a batch element: per batch element its (class, box, score) rows."""
    found = []
    for b in range(boxes.shape[0]):
        rows = []
        for c in range(scores.shape[1]):
            if c == background:
                continue
            order = sorted(range(boxes.shape[1]), key=lambda i: -scores[b, c, i])
            left = {i: float(scores[b, c, i]) for i in (order if nms_top_k < 0 else order[:nms_top_k])}
            adaptive = iou_thr
            while left:
                best = max(left, key=lambda i: (left[i], -i))
                s = left.pop(best)
                if s < score_thr:
                    break
                rows.append((c, best, s))
                if eta < 1 and adaptive > 0.5:
                    adaptive *= eta
                for i in list(left):
                    if _iou(boxes[b, i], boxes[b, best], False) > adaptive:
                        del left[i]
        rows.sort(key=lambda r: -r[2])
        found.append(rows if keep_top_k < 0 else rows[:keep_top_k])
    return found


def _mc_outputs(boxes: np.ndarray, per_batch: list[list[tuple[int, int, float]]], sort: str) -> list[np.ndarray]:
    rows = []
    for b, chosen in enumerate(per_batch):
        mine = sorted(chosen, key=(lambda r: (r[0], -r[2])) if sort == "class" else (lambda r: -r[2]))
        rows += [(b, c, i, s) for c, i, s in mine]
    out = np.array([[c, s, *boxes[b, i].tolist()] for b, c, i, s in rows], np.float32).reshape(-1, 6)
    idx = np.array([[b * boxes.shape[1] + i] for b, c, i, s in rows], np.int64).reshape(-1, 1)
    return [out, idx, np.array([len(p) for p in per_batch], np.int64)]


def _ordered_boxes(rng: np.random.Generator, b: int, n: int) -> np.ndarray:
    lo = rng.uniform(0, 3, (b, n, 2))
    return np.concatenate([lo, lo + rng.uniform(0.3, 1.5, (b, n, 2))], axis=2).astype(np.float32)


@pytest.mark.parametrize("version", [8, 9])
@pytest.mark.parametrize("settings", [dict(), dict(eta=0.6), dict(nms_top_k=3), dict(keep_top_k=4),
                                      dict(background=1)])
def test_multiclass_is_the_pages_loop(version: int, settings: dict) -> None:
    rng = np.random.default_rng(40 + version)
    names = {"eta": "nms_eta", "nms_top_k": "nms_top_k", "keep_top_k": "keep_top_k", "background": "background_class"}
    for _ in range(6):
        boxes, scores = _ordered_boxes(rng, 2, 8), rng.uniform(0, 1, (2, 3, 8)).astype(np.float32)
        attributes = {"iou_threshold": 0.9 if "eta" in settings else 0.3, "score_threshold": 0.1,
                      "sort_result": "score", **{names[k]: v for k, v in settings.items()}}
        outputs, _ = multiclass.evaluate(version, [boxes, scores], attributes)
        ways = multiclass.tie_groups(version, [boxes, scores], attributes)
        loop = loop_multiclass(boxes, scores, attributes["iou_threshold"], 0.1, **settings)
        assert [int(v) for v in outputs[2]] == [len(p) for p in loop]
        assert check_multiclass(ways, _mc_outputs(boxes, loop, "score")) is None
        np.testing.assert_array_equal(outputs[0], _mc_outputs(boxes, loop, "score")[0])


def test_multiclass_planted_errors_fail() -> None:
    rng = np.random.default_rng(77)
    boxes, scores = _ordered_boxes(rng, 2, 10), rng.uniform(0, 1, (2, 3, 10)).astype(np.float32)
    attributes = {"iou_threshold": 0.3, "score_threshold": 0.1, "sort_result": "score"}
    ways = multiclass.tie_groups(9, [boxes, scores], attributes)
    right = loop_multiclass(boxes, scores, 0.3, 0.1)
    assert check_multiclass(ways, _mc_outputs(boxes, right, "score")) is None
    off = loop_multiclass(boxes, scores, 0.05, 0.1)  # a threshold off
    assert off != right and check_multiclass(ways, _mc_outputs(boxes, off, "score")) is not None
    ascending = _mc_outputs(boxes, right, "score")
    ascending[0], ascending[1] = ascending[0][::-1].copy(), ascending[1][::-1].copy()
    assert check_multiclass(ways, ascending) is not None  # rows reversed: batch order and score order both broken
    by_class = _mc_outputs(boxes, right, "class")
    assert check_multiclass(ways, by_class) is not None  # class order where score order is asked
    no_eta = multiclass.tie_groups(9, [boxes, scores], {**attributes, "iou_threshold": 0.9, "nms_eta": 0.5})
    assert check_multiclass(no_eta, _mc_outputs(boxes, loop_multiclass(boxes, scores, 0.9, 0.1), "score")) is not None


# ExperimentalDetectronTopKROIs-6

from conformance.ops._topk_rois import check as check_rois  # noqa: E402
from conformance_reference import openvino_experimental_detectron_topk_rois as topk_rois  # noqa: E402


def loop_topk_rois(rois: np.ndarray, probs: np.ndarray, k: int) -> np.ndarray:
    """Selection by repeated maximum: the highest remaining probability, k times (earlier ROI on a tie)."""
    left, out = list(range(len(probs))), []
    for _ in range(min(k, len(probs))):
        best = left[0]
        for i in left:
            if probs[i] > probs[best]:
                best = i
        left.remove(best)
        out.append(rois[best])
    return np.array(out, rois.dtype).reshape(-1, 4)


def test_topk_rois_is_repeated_maximum_and_planted_errors_fail() -> None:
    rng = np.random.default_rng(3)
    for n, k in ((9, 4), (6, 6), (5, 1)):
        rois = rng.uniform(0, 10, (n, 4)).astype(np.float32)
        probs = rng.uniform(0, 1, n).astype(np.float32)
        outputs, _ = topk_rois.evaluate(6, [rois, probs], {"max_rois": k})
        ties = topk_rois.tie_groups(6, [rois, probs], {"max_rois": k})
        np.testing.assert_array_equal(outputs[0], loop_topk_rois(rois, probs, k))
        assert check_rois(ties, loop_topk_rois(rois, probs, k)) is None
        if k > 1:
            ascending = loop_topk_rois(rois, -probs, k)  # the wrong direction
            assert check_rois(ties, ascending) is not None
    rois = np.arange(20, dtype=np.float32).reshape(5, 4)
    probs = np.array([0.75, 0.5, 0.5, 0.25, 0.5], np.float32)
    ties = topk_rois.tie_groups(6, [rois, probs], {"max_rois": 3})
    for pair in ((1, 2), (2, 1), (4, 1), (2, 4)):
        assert check_rois(ties, rois[[0, *pair]]) is None
    assert check_rois(ties, rois[[0, 1, 1]]) is not None  # one ROI twice
    assert check_rois(ties, rois[[0, 1, 3]]) is not None  # a lower probability inside the cut



# MatrixNonMaxSuppression-8: the decay written per pair from steps 1-6

from conformance_reference import openvino_matrix_non_max_suppression as matrix  # noqa: E402


def loop_matrix(boxes: np.ndarray, scores: np.ndarray, score_thr: float, post: float, gaussian: bool,
                sigma: float = 2.0) -> list[list[tuple[int, int, float]]]:
    """Per batch element, (class, box, decayed score) of the boxes above post_threshold."""
    found = []
    for b in range(boxes.shape[0]):
        rows = []
        for c in range(scores.shape[1]):
            cands = sorted((i for i in range(boxes.shape[1]) if scores[b, c, i] > score_thr),
                           key=lambda i: -scores[b, c, i])
            n = len(cands)
            iou = [[_iou(boxes[b, cands[i]], boxes[b, cands[j]], False) if i < j else 0.0 for j in range(n)]
                   for i in range(n)]
            k = [max([iou[r][i] for r in range(n)], default=0.0) for i in range(n)]
            for j in range(n):
                decay = min((math.exp((k[i] ** 2 - iou[i][j] ** 2) * sigma) if gaussian
                             else (1 - iou[i][j]) / (1 - k[i])) for i in range(n))
                s = float(scores[b, c, cands[j]]) * decay
                if s > post:
                    rows.append((c, cands[j], s))
        found.append(rows)
    return found


@pytest.mark.parametrize("gaussian", [False, True])
def test_matrix_is_the_pages_decay_and_planted_errors_fail(gaussian: bool) -> None:
    rng = np.random.default_rng(21)
    for _ in range(5):
        boxes, scores = _ordered_boxes(rng, 2, 7), rng.uniform(0, 1, (2, 2, 7)).astype(np.float32)
        attributes = {"score_threshold": 0.1, "post_threshold": 0.2, "sort_result": "score",
                      "decay_function": "gaussian" if gaussian else "linear"}
        ways = matrix.tie_groups(8, [boxes, scores], attributes)
        right = loop_matrix(boxes, scores, 0.1, 0.2, gaussian)
        assert check_multiclass(ways, _mc_outputs(boxes, right, "score")) is None
        outputs, _ = matrix.evaluate(8, [boxes, scores], attributes)
        np.testing.assert_allclose(sorted(outputs[0][:, 1]), sorted(s for p in right for _, _, s in p), rtol=1e-6)
        undecayed = [[(c, i, float(scores[b, c, i])) for c, i, _ in p] for b, p in enumerate(right)]
        if undecayed != right:
            assert check_multiclass(ways, _mc_outputs(boxes, undecayed, "score")) is not None  # no decay
        other = loop_matrix(boxes, scores, 0.1, 0.2, gaussian, sigma=4.0 if gaussian else 2.0) if gaussian \
            else loop_matrix(boxes, scores, 0.1, 0.2, True)  # sigma doubled, or the other decay function
        if [[(c, i) for c, i, _ in p] for p in other] != [[(c, i) for c, i, _ in p] for p in right] or any(
                abs(x[2] - y[2]) > 1e-5 for p, q in zip(other, right) for x, y in zip(p, q)):
            assert check_multiclass(ways, _mc_outputs(boxes, other, "score")) is not None
