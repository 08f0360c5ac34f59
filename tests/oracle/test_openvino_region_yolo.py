"""OpenVINO RegionYolo-1 (reference/openvino_region_yolo.py) against loops written from the paper's activations,
element by element: per batch, region, cell, σ of t_x, t_y and t_o, t_w and t_h unchanged, the class scores'
softmax; the flattening; the bound against a float32 computation, and planted errors (σ on t_w, a softmax over the
wrong channels, a factor 2) that the loops catch."""

from __future__ import annotations

import math

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation, openvino_region_yolo


def _run(x: np.ndarray, attributes: dict) -> tuple[np.ndarray, np.ndarray | None]:
    result = reference.evaluate("openvino", "RegionYolo", 1, [x], attributes)
    return result.outputs[0], result.unspecified[0]


def _loop(x, coords, classes, regions, softmax, mutate=None):
    n, c, h, w = x.shape
    per = coords + 1 + classes
    out = np.zeros((n, c, h, w))
    for b in range(n):
        for r in range(regions):
            base = r * per
            for i in range(h):
                for j in range(w):
                    for k in range(coords):
                        t = float(x[b, base + k, i, j])
                        logistic = k < 2 or mutate == "sigmoid_wh"
                        out[b, base + k, i, j] = 1 / (1 + math.exp(-t)) if logistic else t
                    t = float(x[b, base + coords, i, j])
                    out[b, base + coords, i, j] = 1 / (1 + math.exp(-t))
                    first = base + coords + 1 + (1 if mutate == "shift" else 0)
                    scores = [float(x[b, (first + q) % c, i, j]) for q in range(classes)]
                    if softmax:
                        top = max(scores)
                        total = sum(math.exp(s - top) for s in scores)
                        for q in range(classes):
                            value = math.exp(scores[q] - top) / total
                            out[b, base + coords + 1 + q, i, j] = value * (2 if mutate == "double" else 1)
    return out


@pytest.mark.parametrize(("coords", "classes", "regions"), [(4, 3, 2), (2, 5, 1), (4, 1, 3)])
def test_softmax_matches_the_loop(coords, classes, regions):
    x = np.random.default_rng(5).uniform(-6, 6, (2, regions * (coords + 1 + classes), 3, 4)).astype(np.float32)
    a = {"axis": 1, "end_axis": 3, "coords": coords, "classes": classes, "num": regions, "do_softmax": True}
    out, mask = _run(x, a)
    assert mask is None and out.shape == (2, x[0].size)
    want = _loop(x, coords, classes, regions, True).reshape(2, -1)
    np.testing.assert_allclose(out, want, rtol=2e-6, atol=1e-7)
    for mutate in ("sigmoid_wh", "shift", "double"):
        if mutate == "sigmoid_wh" and coords <= 2 or mutate == "shift" and classes == 1:
            continue  # no t_w to change, or a softmax of one score (1 whichever channel)
        assert not np.allclose(out, _loop(x, coords, classes, regions, True, mutate).reshape(2, -1), atol=1e-4)


def test_no_softmax_leaves_the_scores_unspecified_and_checks_the_rest():
    x = np.random.default_rng(6).uniform(-6, 6, (1, 16, 4, 5)).astype(np.float32)
    a = {"axis": 1, "end_axis": 3, "coords": 4, "classes": 3, "num": 4, "do_softmax": False, "mask": [1, 3]}
    out, mask = _run(x, a)
    assert out.shape == (1, 16, 4, 5)
    per_channel = mask.reshape(2, 8, 4, 5).all(axis=(2, 3))
    assert per_channel[:, 5:].all() and not per_channel[:, :5].any()
    want = _loop(x, 4, 3, 2, False)
    np.testing.assert_allclose(out[~mask], want[~mask], rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize(("axis", "end_axis", "shape"), [(2, 3, (2, 18, 12)), (-3, -1, (2, 216)), (1, 1, (2, 18, 3, 4)),
                                                         (0, 3, (432,)), (0, 1, (36, 3, 4))])
def test_flattening(axis, end_axis, shape):
    x = np.random.default_rng(7).uniform(-3, 3, (2, 18, 3, 4)).astype(np.float32)
    a = {"axis": axis, "end_axis": end_axis, "coords": 4, "classes": 4, "num": 2, "do_softmax": True}
    out, _ = _run(x, a)
    assert out.shape == shape
    np.testing.assert_allclose(out.reshape(-1), _loop(x, 4, 4, 2, True).reshape(-1), rtol=2e-6, atol=1e-7)


def test_the_page_examples_shapes():
    v3 = {"anchors": "10,14,23,27,37,58,81,82,135,169,344,319", "axis": "1", "classes": "80", "coords": "4",
          "do_softmax": "0", "end_axis": "3", "mask": "0,1,2", "num": "6"}
    assert openvino_region_yolo.output_shapes(1, [(1, 255, 26, 26)], v3) == [(1, 255, 26, 26)]
    v2 = {"axis": 1, "classes": 20, "coords": 4, "do_softmax": True, "end_axis": 3, "num": 5}
    assert openvino_region_yolo.output_shapes(1, [(1, 125, 13, 13)], v2) == [(1, 21125)]


def test_a_float32_computation_is_within_the_bound():
    """σ and the softmax evaluated in float32 stay within (K + 2)·u·magnitude + 8·u·|y| + 1 ulp; doubled they fail."""
    x = np.random.default_rng(8).uniform(-8, 8, (1, 2 * 13, 3, 3)).astype(np.float32)
    a = {"axis": 1, "end_axis": 3, "coords": 4, "classes": 8, "num": 2, "do_softmax": True}
    want = _loop(x, 4, 8, 2, True).reshape(1, -1)
    f = x.reshape(1, 2, 13, 3, 3).copy()
    got = f.copy()
    got[:, :, [0, 1, 4]] = np.float32(1) / (np.float32(1) + np.exp(-f[:, :, [0, 1, 4]]))
    e = np.exp(f[:, :, 5:] - f[:, :, 5:].max(axis=2, keepdims=True))
    got[:, :, 5:] = e / e.sum(axis=2, keepdims=True, dtype=np.float32)
    got = got.reshape(1, -1).astype(np.float64)
    u = 2.0 ** -24
    k = openvino_region_yolo.window_elements(1, [x.shape], a)
    magnitude = openvino_region_yolo.magnitude(1, [x], a)[0]
    bound = (k + 2) * u * magnitude + 8 * u * np.abs(want) + np.spacing(np.abs(want).astype(np.float32))
    assert (np.abs(got - want) <= bound).all()
    assert (np.abs(2 * got - want) > bound).any()


@pytest.mark.parametrize(("shape", "attributes"), [
    ((6, 3, 3), {"axis": 1, "end_axis": 2, "coords": 4, "classes": 1, "num": 1}),
    ((1, 6, 2, 2), {"axis": 1, "end_axis": 4, "coords": 4, "classes": 1, "num": 1}),
    ((1, 6, 2, 2), {"axis": 1, "end_axis": 3, "coords": 4, "num": 1}),
    ((1, 6, 2, 2), {"axis": 3, "end_axis": 1, "coords": 4, "classes": 1, "num": 1}),
])
def test_what_the_text_forbids(shape, attributes):
    with pytest.raises(SpecViolation):
        _run(np.zeros(shape, np.float32), attributes)
