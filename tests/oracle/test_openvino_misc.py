"""OpenVINO Col2Im, GridSample, SegmentMax, Bincount, SparseFillEmptyRows, ConvertPromoteTypes, FakeConvert (the
misc family) against loops written from each page's text, the pages' worked examples, and planted factor-2 or
off-by-one errors that the loops catch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference._errors import SpecViolation


def _run(op: str, version: int, inputs: list, attributes: dict | None = None):
    return reference.evaluate("openvino", op, version, [np.asarray(x) for x in inputs], attributes or {})


# --- Col2Im -----------------------------------------------------------------------------------------------------

def _naive_col2im(x: np.ndarray, out: tuple, ker: tuple, stride=(1, 1), dil=(1, 1), begin=(0, 0), end=(0, 0),
                  shift: int = 0) -> np.ndarray:
    """Each output pixel (h, w) of channel c gathers every block column l = bh * nW + bw and kernel row
    c * kh * kw + i * kw + j whose tap lands on it: h = bh * stride - pad + i * dilation (``shift`` plants an
    off-by-one in the tap position)."""
    n_blocks = [(out[d] + begin[d] + end[d] - dil[d] * (ker[d] - 1) - 1) // stride[d] + 1 for d in range(2)]
    batch, rows, _ = x.shape
    channels = rows // (ker[0] * ker[1])
    y = np.zeros((batch, channels, *out))
    for n, c, h, w in itertools.product(range(batch), range(channels), range(out[0]), range(out[1])):
        total = 0.0
        for bh, bw, i, j in itertools.product(range(n_blocks[0]), range(n_blocks[1]), range(ker[0]), range(ker[1])):
            if (bh * stride[0] - begin[0] + i * dil[0] + shift == h
                    and bw * stride[1] - begin[1] + j * dil[1] == w):
                total += float(x[n, c * ker[0] * ker[1] + i * ker[1] + j, bh * n_blocks[1] + bw])
        y[n, c, h, w] = total
    return y


@pytest.mark.parametrize("out,ker,stride,dil,begin,end", [
    ((4, 4), (2, 2), (1, 1), (1, 1), (0, 0), (0, 0)),
    ((5, 6), (2, 3), (2, 1), (1, 2), (1, 0), (0, 2)),
    ((7, 7), (3, 3), (1, 1), (1, 1), (0, 0), (0, 0)),
    ((8, 8), (2, 2), (3, 3), (1, 1), (0, 0), (1, 1)),
    ((7, 5), (2, 2), (2, 2), (2, 2), (1, 1), (0, 1)),
])
def test_col2im_matches_the_loops_and_a_planted_shift_fails(out, ker, stride, dil, begin, end) -> None:
    blocks = [(out[d] + begin[d] + end[d] - dil[d] * (ker[d] - 1) - 1) // stride[d] + 1 for d in range(2)]
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 2 * ker[0] * ker[1], blocks[0] * blocks[1]))
    attributes = {"strides": list(stride), "dilations": list(dil), "pads_begin": list(begin), "pads_end": list(end)}
    got = _run("Col2Im", 15, [x, np.array(out, np.int64), np.array(ker, np.int32)], attributes).outputs[0]
    want = _naive_col2im(x, out, ker, stride, dil, begin, end)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert not np.allclose(2 * got, want)  # a factor 2 is caught
    assert not np.allclose(got, _naive_col2im(x, out, ker, stride, dil, begin, end, shift=1))  # off by one
    v14 = {"output_size": list(out), "kernel_size": list(ker), "stride": list(stride), "dilation": list(dil),
           "pads_begin": list(begin), "pads_end": list(end)}
    np.testing.assert_allclose(_run("Col2Im", 14, [x], v14).outputs[0], want, rtol=1e-12, atol=1e-12)
    unbatched = _run("Col2Im", 15, [x[0], np.array(out), np.array(ker)], attributes).outputs[0]
    np.testing.assert_allclose(unbatched, want[0], rtol=1e-12, atol=1e-12)
    # K: the most taps landing on one pixel, counted on ones
    ones = _naive_col2im(np.ones_like(x), out, ker, stride, dil, begin, end)
    k = reference.window_elements("openvino", "Col2Im", 15, [x.shape, (2,), (2,)], attributes,
                                  {1: np.array(out), 2: np.array(ker)})
    assert k == max(int(ones.max()), 1)


def test_col2im_pages_shapes_and_errata() -> None:
    shapes = reference.output_shapes
    assert shapes("openvino", "Col2Im", 14, [(3, 12, 225)], {"output_size": [16, 16], "kernel_size": [2, 2]}) == \
        [(3, 3, 16, 16)]
    assert shapes("openvino", "Col2Im", 15, [(12, 225), (2,), (2,)], {},
                  {1: np.array([16, 16]), 2: np.array([2, 2])}) == [(3, 16, 16)]
    example_3 = {"dilation": [2, 2], "pads_begin": [3, 3], "pads_end": [3, 3], "output_size": [32, 32],
                 "kernel_size": [2, 2]}
    assert shapes("openvino", "Col2Im", 14, [(12, 12, 1296)], example_3) == [(12, 3, 32, 32)]
    with pytest.raises(SpecViolation, match="L = 7 \\* 7"):  # both pages' Example 2 writes L = 25
        shapes("openvino", "Col2Im", 14, [(1, 27, 25)], {"output_size": [16, 16], "kernel_size": [3, 3],
                                                          "dilation": [2, 2], "pads_begin": [1, 1],
                                                          "pads_end": [1, 1], "stride": [2, 2]})
    with pytest.raises(SpecViolation, match="L = 36 \\* 36"):  # -15's Example 3 writes L = 324
        shapes("openvino", "Col2Im", 15, [(12, 12, 324), (2,), (2,)],
               {"dilations": [2, 2], "pads_begin": [3, 3], "pads_end": [3, 3]},
               {1: np.array([32, 32]), 2: np.array([2, 2])})
    ints = _run("Col2Im", 15, [np.full((1, 4, 9), 100, np.int8), np.array([4, 4]), np.array([2, 2])])
    assert ints.outputs[0][0, 0, 1, 1] == 0 and ints.unspecified[0][0, 0, 1, 1]  # 400 does not fit int8: unspecified
    assert ints.outputs[0][0, 0, 0, 0] == 100 and not ints.unspecified[0][0, 0, 0, 0]
