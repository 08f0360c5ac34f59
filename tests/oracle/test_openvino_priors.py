"""OpenVINO's prior-box generators (reference/openvino_prior_box.py, openvino_prior_box_clustered.py) against loops
written from the pages' words: per cell, per prior, the centre, the box of size s from center - s/2 to
center + s/2 over the image's size, clip; the pages' examples' output sizes, the readings left unspecified, the
float32 computation within the bound, and planted errors (the erratum's halved difference, a doubled step, the
minus of xmax) that the loops catch."""

from __future__ import annotations

import math

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation, openvino_prior_box


def _run(op: str, version: int, sizes: tuple, attributes: dict) -> tuple[np.ndarray, np.ndarray | None]:
    inputs = [np.array(sizes[:2], np.int64), np.array(sizes[2:], np.int64)]
    result = reference.evaluate("openvino", op, version, inputs, attributes)
    return result.outputs[0], result.unspecified[0]


def _loop_prior_box(h, w, ih, iw, a, max_first=True, mutate=None):
    """PriorBox per the text (step > 0): centre (w + offset) * step; each min size s a square, then (SSD) the
    sqrt(min*max) square and each ratio's s*sqrt(r) x s/sqrt(r) box, in the order given."""
    ratios = []
    for r in a.get("aspect_ratio", []):
        if all(abs(r - q) >= 1e-6 for q in [1.0, *ratios]):
            ratios.append(r)
            if a.get("flip"):
                ratios.append(1 / r)
    out = []
    for row in range(h):
        for col in range(w):
            cx = (col + a["offset"]) * a["step"]
            cy = (row + a["offset"]) * a["step"]
            for i, s in enumerate(a["min_size"]):
                boxes = [(s, s)]
                big = [(math.sqrt(s * a["max_size"][i]),) * 2] if a.get("max_size") else []
                shaped = [(s * math.sqrt(r), s / math.sqrt(r)) for r in ratios]
                boxes += big + shaped if max_first else shaped + big
                for bw, bh in boxes:
                    if mutate == "erratum":  # the page as printed: (center - s) / 2
                        out += [(cx - bw) / 2 / iw, (cy - bh) / 2 / ih, (cx + bw) / 2 / iw, (cy + bh) / 2 / ih]
                    else:
                        out += [(cx - bw / 2) / iw, (cy - bh / 2) / ih, (cx + bw / 2) / iw, (cy + bh / 2) / ih]
    values = np.array(out)
    return np.clip(values, 0, 1) if a.get("clip") else values


def _loop_clustered(h, w, ih, iw, a, mutate=None):
    step_w, step_h = a.get("step_w", 0.0), a.get("step_h", 0.0)
    if step_w == 0 and step_h == 0:
        step_w = step_h = a.get("step", 0.0)
    if step_w == 0 and step_h == 0:
        step_w, step_h = iw / w, ih / h
    if mutate == "step":
        step_w *= 2
    out = []
    for row in range(h):
        for col in range(w):
            cx, cy = (col + a["offset"]) * step_w, (row + a["offset"]) * step_h
            for bw, bh in zip(a.get("width", [1.0]), a.get("height", [1.0]), strict=True):
                sign = -1 if mutate == "minus" else 1  # the page as printed: xmax with the minus
                out += [(cx - bw / 2) / iw, (cy - bh / 2) / ih, (cx + sign * bw / 2) / iw, (cy + sign * bh / 2) / ih]
    values = np.array(out)
    return np.clip(values, 0, 1) if a.get("clip", True) else values


PB = {"min_size": [10.0, 20.0], "max_size": [15.0, 30.0], "aspect_ratio": [2.0, 3.0, 2.0], "flip": True,
      "step": 8.0, "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2]}


@pytest.mark.parametrize("version", [1, 8])
@pytest.mark.parametrize("clip", [False, True])
def test_prior_box_matches_the_loop(version, clip):
    a = {**PB, "clip": clip}
    out, mask = _run("PriorBox", version, (4, 5, 32, 40), a)
    want = _loop_prior_box(4, 5, 32, 40, a)
    if version == 8:
        assert mask is None
        np.testing.assert_allclose(out[0], want, rtol=1e-6, atol=1e-7)
    else:  # -1: the cell's order is two readings; where they agree the loop's value
        other = _loop_prior_box(4, 5, 32, 40, a, max_first=False)
        agree = want == other
        assert (mask[0] == ~agree).all()
        np.testing.assert_allclose(out[0][agree], want[agree], rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(out[1], np.tile([0.1, 0.1, 0.2, 0.2], out.shape[1] // 4).astype(np.float32))


def test_prior_box_8_order_false_puts_max_last():
    a = {**PB, "min_max_aspect_ratios_order": False}
    out, _ = _run("PriorBox", 8, (2, 3, 16, 24), a)
    np.testing.assert_allclose(out[0], _loop_prior_box(2, 3, 16, 24, a, max_first=False), rtol=1e-6, atol=1e-7)
    assert not np.allclose(out[0], _loop_prior_box(2, 3, 16, 24, a, max_first=True))


def test_the_planted_erratum_and_a_doubled_step_fail():
    out, _ = _run("PriorBox", 8, (4, 5, 32, 40), PB)
    assert not np.allclose(out[0], _loop_prior_box(4, 5, 32, 40, PB, mutate="erratum"), atol=1e-3)
    doubled = {**PB, "step": 16.0}
    assert not np.allclose(out[0], _loop_prior_box(4, 5, 32, 40, doubled), atol=1e-3)


def test_the_page_examples_sizes():
    ex = {"aspect_ratio": "2.0", "clip": "false", "density": "", "fixed_ratio": "", "fixed_size": "", "flip": "true",
          "max_size": "38.46", "min_size": "16.0", "offset": "0.5", "step": "16.0", "variance": "0.1,0.1,0.2,0.2"}
    for v in (1, 8):
        out, _ = _run("PriorBox", v, (24, 42, 384, 672), ex)
        assert out.shape == (2, 16128)
    ex = {"clip": "false", "height": "44.0,10.0,30.0,19.0,94.0,32.0,61.0,53.0,17.0", "offset": "0.5", "step": "16.0",
          "variance": "0.1,0.1,0.2,0.2", "width": "86.0,13.0,57.0,39.0,68.0,34.0,142.0,50.0,23.0"}
    out, mask = _run("PriorBoxClustered", 1, (10, 19, 180, 320), ex)
    assert out.shape == (2, 6840) and mask is None
    a = {"width": [float(v) for v in ex["width"].split(",")], "height": [float(v) for v in ex["height"].split(",")],
         "step": 16.0, "offset": 0.5, "clip": False}
    np.testing.assert_allclose(out[0], _loop_clustered(10, 19, 180, 320, a), rtol=1e-6, atol=1e-7)


def test_step_zero_readings_agree_only_where_image_equals_grid():
    a = {"min_size": [2.0], "offset": 0.5, "variance": [0.1]}
    _, mask = _run("PriorBox", 8, (3, 4, 3, 4), a)
    assert mask is None
    out, mask = _run("PriorBox", 8, (2, 3, 8, 12), {**a, "min_size": [4.0]})
    assert mask[0].all() and not mask[1].any()


@pytest.mark.parametrize("a", [
    {"width": [4.0, 10.0], "height": [6.0, 3.0], "step_w": 8.0, "step_h": 5.0, "step": 100.0, "offset": 0.5,
     "clip": False},
    {"width": [5.0], "height": [7.0], "step": 6.0, "offset": 0.25, "clip": False},
    {"width": [3.0, 8.0], "height": [3.0, 2.0], "offset": 0.5, "clip": False},
    {"width": [30.0, 9.0], "height": [14.0, 40.0], "step": 10.0, "offset": 0.5},
])
def test_prior_box_clustered_matches_the_loop(a):
    out, _ = _run("PriorBoxClustered", 1, (4, 5, 20, 30), {**a, "variance": [0.2]})
    np.testing.assert_allclose(out[0], _loop_clustered(4, 5, 20, 30, a), rtol=1e-6, atol=1e-7)
    for mutate in ("step", "minus"):
        assert not np.allclose(out[0], _loop_clustered(4, 5, 20, 30, a, mutate=mutate), atol=1e-3)


def _float32_prior_box(h, w, ih, iw, a):
    """The same formula with every operation rounded to float32 (an implementation's computation)."""
    f = np.float32
    out = []
    for row in range(h):
        for col in range(w):
            cx, cy = (f(col) + f(a["offset"])) * f(a["step"]), (f(row) + f(a["offset"])) * f(a["step"])
            for s in a["min_size"]:
                for r in [1.0, *a["aspect_ratio"]]:
                    bw, bh = f(s) * np.sqrt(f(r)), f(s) / np.sqrt(f(r))
                    out += [(cx - bw / f(2)) / f(iw), (cy - bh / f(2)) / f(ih), (cx + bw / f(2)) / f(iw),
                            (cy + bh / f(2)) / f(ih)]
    return np.array(out, np.float32)


def test_a_float32_computation_is_within_the_bound():
    a = {"min_size": [7.3, 13.1], "aspect_ratio": [2.7, 0.3], "step": 3.3, "offset": 0.37, "variance": [0.1]}
    inputs = [np.array([6, 7], np.int64), np.array([19, 23], np.int64)]
    want = _loop_prior_box(6, 7, 19, 23, a)  # exact (float64)
    magnitude = openvino_prior_box.magnitude(8, inputs, a)[0][0]
    got = _float32_prior_box(6, 7, 19, 23, a).astype(np.float64)
    u = 2.0 ** -24
    bound = (4 + 2) * u * magnitude + u * np.abs(want) + np.spacing(np.abs(want).astype(np.float32))
    assert (np.abs(got - want) <= bound).all()
    assert (np.abs(got * 2 - want) > bound).any()


@pytest.mark.parametrize(("op", "attributes", "sizes"), [
    ("PriorBox", {"min_size": [3.0], "step": 2.0}, (2, 2, 4, 4)),
    ("PriorBox", {"min_size": [3.0], "step": 2.0, "offset": 0.5, "variance": [0.1, 0.2]}, (2, 2, 4, 4)),
    ("PriorBox", {"min_size": [-3.0], "step": 2.0, "offset": 0.5}, (2, 2, 4, 4)),
    ("PriorBoxClustered", {"width": [2.0, 3.0], "height": [2.0], "offset": 0.5}, (2, 2, 4, 4)),
])
def test_what_the_text_forbids(op, attributes, sizes):
    with pytest.raises(SpecViolation):
        _run(op, 1, sizes, attributes)
