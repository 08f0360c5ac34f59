"""OpenVINO MatMul-1 (reference/openvino_matmul.py) against loops written from the text's four alignment steps,
the shape examples the text lists, K, integer overflow, and what the text forbids."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference


def _naive(a: np.ndarray, b: np.ndarray, ta: bool, tb: bool) -> np.ndarray:
    """The text, step by step, with explicit loops over every output element and every term (float64)."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    if a.ndim >= 2 and ta:  # step 1: swap the two right-most axes; ignored for 1-D
        a = np.swapaxes(a, -1, -2)
    if b.ndim >= 2 and tb:
        b = np.swapaxes(b, -1, -2)
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    a = a[None, :] if a_vec else a  # step 2: a row [1, S], a column [S, 1]
    b = b[:, None] if b_vec else b
    rank = max(a.ndim, b.ndim)  # step 3: unsqueeze the smaller rank from the left
    a = a.reshape((1,) * (rank - a.ndim) + a.shape)
    b = b.reshape((1,) * (rank - b.ndim) + b.shape)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])  # step 4
    rows, inner, cols = a.shape[-2], a.shape[-1], b.shape[-1]
    out = np.zeros(batch + (rows, cols))
    for index in itertools.product(*(range(n) for n in batch)):
        ai = tuple(i if n > 1 else 0 for i, n in zip(index, a.shape[:-2]))
        bi = tuple(i if n > 1 else 0 for i, n in zip(index, b.shape[:-2]))
        for r, c in itertools.product(range(rows), range(cols)):
            out[index + (r, c)] = sum(a[ai + (r, k)] * b[bi + (k, c)] for k in range(inner))
    if a_vec:  # the temporary axes removed
        out = out[..., 0, :]
    if b_vec:
        out = out[..., 0]
    return out


CASES = [((5,), (5,), False, False), ((4,), (3, 4, 2), False, False), ((3, 2, 4), (4,), False, False),
         ((3, 5, 4), (3, 5, 2), True, False), ((2, 4, 3), (2, 5, 4), True, True), ((4,), (4,), True, True),
         ((2, 1, 3, 4), (5, 4, 2), False, False), ((3, 4), (2, 2, 4, 6), False, False), ((3, 4), (6, 4), False, True)]


@pytest.mark.parametrize(("a_shape", "b_shape", "ta", "tb"), CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_matches_the_texts_steps(a_shape, b_shape, ta, tb, dtype) -> None:
    rng = np.random.default_rng(len(a_shape) * 7 + len(b_shape))
    a, b = rng.standard_normal(a_shape).astype(dtype), rng.standard_normal(b_shape).astype(dtype)
    attributes = {"transpose_a": ta, "transpose_b": tb}
    got = reference.evaluate("openvino", "MatMul", 1, [a, b], attributes).outputs[0]
    want = _naive(a, b, ta, tb)
    assert got.shape == want.shape == reference.output_shapes("openvino", "MatMul", 1, [a.shape, b.shape],
                                                              attributes)[0]
    np.testing.assert_allclose(got.astype(np.float64), want.astype(dtype).astype(np.float64),
                               rtol=float(ml_dtypes.finfo(dtype).eps), atol=1e-6 if dtype != np.float64 else 1e-12)


def test_the_texts_shape_examples_and_k() -> None:
    shapes = lambda a, b, **t: reference.output_shapes("openvino", "MatMul", 1, [a, b], t)[0]  # noqa: E731
    assert shapes((7,), (7,)) == ()
    assert shapes((1024,), (1024, 1000)) == (1000,)
    assert shapes((1000, 1024), (1024,)) == (1000,)
    assert shapes((1024,), (1000, 1024), transpose_b=True) == (1000,)
    assert shapes((5, 10, 1024), (1024, 1000)) == (5, 10, 1000)
    assert reference.window_elements("openvino", "MatMul", 1, [(5, 10, 1024), (1024, 1000)], {}) == 1024
    assert reference.window_elements("openvino", "MatMul", 1, [(3, 6), (5, 3)], {"transpose_a": True,
                                                                                "transpose_b": True}) == 3


def test_integers_exact_and_overflow_unspecified() -> None:
    a, b = np.array([[100, 100], [1, 2]], np.int8), np.array([[1], [1]], np.int8)
    found = reference.evaluate("openvino", "MatMul", 1, [a, b], {})
    assert found.outputs[0][1, 0] == 3 and found.unspecified[0].tolist() == [[True], [False]]


@pytest.mark.parametrize(("a", "b", "attributes"), [
    ((2, 4), (3, 5), {}), ((2, 3, 4), (3, 4, 5), {}), ((), (3,), {}), ((2, 5), (5, 4), {"transpose_b": True}),
    ((2, 3), (3, 2), {"transpose_c": True}),
])
def test_what_the_text_forbids(a, b, attributes) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "MatMul", 1, [np.ones(a, np.float32), np.ones(b, np.float32)], attributes)
