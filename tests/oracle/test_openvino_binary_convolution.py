"""OpenVINO BinaryConvolution-1 (reference/openvino_binary_convolution.py) against the text's algorithm written as
bit operations: per output element, the patch's bits and the kernel's, XNOR, popcount P, 2·P − B; pads filled with
pad_value's bit; planted errors (B halved, an off-by-one popcount) that the loop catches."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


def _loop(x, w, strides, pads, dilations, pad_value, mutate=None):
    n, c, hy, hx = x.shape
    co, _, ky, kx = w.shape
    oy = (hy + pads[0] + pads[2] - ((ky - 1) * dilations[0] + 1)) // strides[0] + 1
    ox = (hx + pads[1] + pads[3] - ((kx - 1) * dilations[1] + 1)) // strides[1] + 1
    out = np.zeros((n, co, oy, ox))
    for b in range(n):
        for o in range(co):
            for i in range(oy):
                for j in range(ox):
                    patch, kernel = [], []
                    for ci in range(c):
                        for a in range(ky):
                            for e in range(kx):
                                r = i * strides[0] + a * dilations[0] - pads[0]
                                s = j * strides[1] + e * dilations[1] - pads[1]
                                inside = 0 <= r < hy and 0 <= s < hx
                                patch.append(int(x[b, ci, r, s]) if inside else int(pad_value))
                                kernel.append(int(w[o, ci, a, e]))
                    xnor = [1 - (p ^ q) for p, q in zip(patch, kernel)]
                    popcount = sum(xnor) + (1 if mutate == "popcount" else 0)
                    bits = len(xnor) // (2 if mutate == "half" else 1)
                    out[b, o, i, j] = 2 * popcount - bits
    return out


CASES = [((1, 2, 5, 6), (3, 2, 3, 3), (1, 1), (0, 0, 0, 0), (1, 1), 0.0),
         ((2, 3, 7, 8), (2, 3, 3, 2), (2, 1), (0, 0, 0, 0), (1, 2), 0.0),
         ((1, 2, 4, 4), (2, 2, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 0.0),
         ((1, 2, 4, 4), (2, 2, 3, 3), (1, 1), (2, 0, 0, 1), (1, 1), 1.0)]


@pytest.mark.parametrize(("xs", "ws", "strides", "pads", "dilations", "pad_value"), CASES)
def test_matches_the_bit_loop(xs, ws, strides, pads, dilations, pad_value):
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x = rng.integers(0, 2, xs).astype(np.float32)
    w = rng.integers(0, 2, ws).astype(np.uint8)
    a = {"strides": list(strides), "pads_begin": list(pads[:2]), "pads_end": list(pads[2:]),
         "dilations": list(dilations), "mode": "xnor-popcount", "pad_value": pad_value}
    result = reference.evaluate("openvino", "BinaryConvolution", 1, [x, w], a)
    got = result.outputs[0]
    want = _loop(x, w, strides, pads, dilations, pad_value)
    np.testing.assert_array_equal(got, want)
    for mutate in ("half", "popcount"):
        assert not np.array_equal(got, _loop(x, w, strides, pads, dilations, pad_value, mutate))


def test_a_pad_value_that_is_no_bit_leaves_padded_windows_unspecified():
    x = np.ones((1, 1, 3, 3), np.float32)
    w = np.ones((1, 1, 3, 3), np.uint8)
    a = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "dilations": [1, 1], "mode": "xnor-popcount",
         "pad_value": 0.5}
    result = reference.evaluate("openvino", "BinaryConvolution", 1, [x, w], a)
    mask = result.unspecified[0]
    assert mask[0, 0, 1, 1] == False and mask.sum() == 8  # noqa: E712 - only the centre reads no padding
    assert result.outputs[0][0, 0, 1, 1] == 9


@pytest.mark.parametrize("x", [np.full((1, 1, 2, 2), 2.0, np.float32), np.zeros((1, 1, 2), np.float32)])
def test_what_the_text_forbids(x):
    w = np.ones((1, 1, 1, 1) if x.ndim == 4 else (1, 1, 1), np.uint8)
    rank = x.ndim - 2
    a = {"strides": [1] * rank, "pads_begin": [0] * rank, "pads_end": [0] * rank, "dilations": [1] * rank,
         "mode": "xnor-popcount", "pad_value": 0.0}
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "BinaryConvolution", 1, [x, w], a)
