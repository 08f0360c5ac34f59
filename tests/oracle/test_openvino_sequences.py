"""OpenVINO OneHot, Range, Eye, CumSum, NonZero (the indexing family's generators and sequences) against loops
written from each page's formula, the pages' worked examples, and planted off-by-one or factor-2 errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference._errors import SpecViolation


def _run(op: str, version: int, inputs: list, attributes: dict | None = None):
    return reference.evaluate("openvino", op, version, [np.asarray(x) for x in inputs], attributes or {})


def _naive_one_hot(indices: np.ndarray, depth: int, on, off, axis: int, mode: str) -> np.ndarray:
    """output[..., i, ...] = on if indices[...] == i else off, i at ``axis`` (normalize: -depth..-1 -> depth + i)."""
    rank = indices.ndim + 1
    axis = axis + rank if axis < 0 else axis
    shape = (*indices.shape[:axis], depth, *indices.shape[axis:])
    out = np.zeros(shape)
    for pos in itertools.product(*map(range, shape)):
        i, rest = pos[axis], pos[:axis] + pos[axis + 1:]
        value = int(indices[rest])
        if mode == "normalize" and -depth <= value < 0:
            value += depth
        out[pos] = on if value == i else off
    return out


@pytest.mark.parametrize("mode", ["ignore-negative", "normalize"])
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_one_hot_matches_the_formula(mode, axis) -> None:
    indices = np.array([[0, -1, 4], [2, -4, 3]])
    got = _run("OneHot", 16, [indices, np.array(4), np.float32(5), np.float32(-1)],
               {"axis": axis, "negative_indices_mode": mode}).outputs[0]
    assert (got == _naive_one_hot(indices, 4, 5, -1, axis, mode)).all()
    v1 = _run("OneHot", 1, [indices, np.array(4), np.float32(5), np.float32(-1)], {"axis": axis})
    mask = v1.unspecified[0]
    want = _naive_one_hot(indices, 4, 5, -1, axis, "ignore-negative")
    assert mask is not None and mask.sum() == 2 * 4 and (v1.outputs[0][~mask] == want[~mask]).all()


def test_one_hot_page_examples_and_rules() -> None:
    f32 = np.float32
    got = _run("OneHot", 16, [np.array([0, -5, -2, 2]), np.array(3), f32(1), f32(2)],
               {"axis": -1, "negative_indices_mode": "normalize"}).outputs[0]
    assert got.tolist() == [[1, 2, 2], [2, 2, 2], [2, 1, 2], [2, 2, 1]]
    got = _run("OneHot", 1, [np.array([[0, 3, 1], [1, 2, 4]]), np.array(3), f32(1), f32(0)], {"axis": 1}).outputs[0]
    assert got.tolist() == [[[1, 0, 0], [0, 0, 1], [0, 0, 0]], [[0, 0, 0], [1, 0, 0], [0, 1, 0]]]
    planted = _naive_one_hot(np.array([0]), 3, 1, 0, 0, "ignore-negative")[::-1]  # classes counted from the end
    found = _run("OneHot", 1, [np.array([0]), np.array(3), f32(1), f32(0)], {"axis": 0}).outputs[0]
    assert not (planted == found).all()
    for depth in (0, -1):
        with pytest.raises(SpecViolation):
            _run("OneHot", 1, [np.array([0]), np.array(depth), f32(1), f32(0)], {"axis": 0})


def _naive_cumsum(x: np.ndarray, axis: int, exclusive: bool, reverse: bool) -> np.ndarray:
    """The j-th output: the sum of the first j (inclusive) or j - 1 (exclusive) elements, from the end if reverse."""
    axis = axis % x.ndim
    out = np.zeros(x.shape)
    for pos in itertools.product(*map(range, x.shape)):
        j, n = pos[axis], x.shape[axis]
        terms = range(j, n) if reverse else range(0, j + 1)
        total = 0.0
        for t in terms:
            if exclusive and t == j:
                continue
            total += float(x[pos[:axis] + (t,) + pos[axis + 1:]])
        out[pos] = total
    return out


@pytest.mark.parametrize(("exclusive", "reverse"), list(itertools.product((False, True), repeat=2)))
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum_matches_the_running_sums(exclusive, reverse, axis) -> None:
    x = np.random.default_rng(7).standard_normal((3, 4, 5))
    got = _run("CumSum", 3, [x, np.array(axis)], {"exclusive": exclusive, "reverse": reverse}).outputs[0]
    np.testing.assert_allclose(got, _naive_cumsum(x, axis, exclusive, reverse), rtol=1e-13, atol=1e-13)
    n = x.shape[axis]
    assert reference.window_elements("openvino", "CumSum", 3, [x.shape, ()], {}, {1: np.array(axis)}) == n


def test_cumsum_page_examples_and_a_planted_shift() -> None:
    x = np.array([1.0, 2, 3, 4, 5], np.float32)
    cs = lambda e, r: _run("CumSum", 3, [x, np.array(0)], {"exclusive": e, "reverse": r}).outputs[0].tolist()  # noqa: E731
    assert cs(False, False) == [1, 3, 6, 10, 15] and cs(True, False) == [0, 1, 3, 6, 10]
    assert cs(False, True) == [15, 14, 12, 9, 5] and cs(True, True) == [14, 12, 9, 5, 0]
    planted = np.cumsum(x)[:-1].tolist() + [15.0]  # exclusive taken one step late
    assert planted != cs(True, False)
    assert _run("CumSum", 3, [x], {}).outputs[0].tolist() == [1, 3, 6, 10, 15]  # axis left out: 0
    with pytest.raises(SpecViolation):
        _run("CumSum", 3, [np.float32(1), np.array(0)], {})


def test_nonzero_tuples_in_row_major_order() -> None:
    rng = np.random.default_rng(9)
    for shape in [(5,), (3, 4), (2, 3, 4)]:
        x = rng.integers(-1, 2, shape).astype(np.float32)
        found = _run("NonZero", 3, [x], {}).outputs[0]
        tuples = [pos for pos in itertools.product(*map(range, shape)) if x[pos] != 0]  # row-major by construction
        assert found.shape == (len(shape), len(tuples)) and found.dtype == np.int64
        assert [tuple(col) for col in found.T.tolist()] == tuples
        assert reference.output_shapes("openvino", "NonZero", 3, [shape], {}, {0: x})[0] == found.shape
    page = _run("NonZero", 3, [np.array([[1, 0], [1, 1]], np.float32)], {"output_type": "i32"}).outputs[0]
    assert page.tolist() == [[0, 1, 1], [0, 0, 1]] and page.dtype == np.int32
    column_major = [[1, 0, 0], [0, 1, 2]]  # (1,0), (0,1), (0,2): the planted order
    got = _run("NonZero", 3, [np.array([[0, 1, 1], [1, 0, 0]], np.float32)], {}).outputs[0].tolist()
    assert got == [[0, 0, 1], [1, 2, 0]] and got != column_major
    assert _run("NonZero", 3, [np.array([0, -0.0, np.nan], np.float32)], {}).outputs[0].tolist() == [[2]]


@pytest.mark.parametrize(("rows", "columns", "diagonal"), [(3, 4, 2), (3, 4, -1), (2, 6, 3), (5, 3, -4), (4, 4, 0),
                                                           (2, 2, 5), (0, 3, 0)])
def test_eye_matches_the_formula(rows, columns, diagonal) -> None:
    i32 = lambda v: np.array(v, np.int32)  # noqa: E731
    got = _run("Eye", 9, [i32(rows), i32(columns), i32(diagonal), i32([2])], {"output_type": "f32"}).outputs[0]
    want = np.zeros((2, rows, columns), np.float32)
    for b, i, j in itertools.product(range(2), range(rows), range(columns)):
        want[b, i, j] = 1 if j == i + diagonal else 0  # output[..., i, i + diagonal_index] = 1
    assert got.shape == want.shape and (got == want).all()


def test_eye_page_examples_and_a_planted_transpose() -> None:
    i32 = lambda v: np.array(v, np.int32)  # noqa: E731
    one = _run("Eye", 9, [i32(3), i32(4), i32(2)], {"output_type": "i32"}).outputs[0]
    assert one.tolist() == [[0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]] and one.dtype == np.int32
    two = _run("Eye", 9, [i32(3), i32(4), i32(-1)], {"output_type": "i32"}).outputs[0]
    assert two.tolist() == [[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]]
    assert not (np.eye(3, 4, 1) == two).all()  # the diagonal's sign flipped
    three = _run("Eye", 9, [i32(2), i32(2), i32(5), i32([1, 2])], {"output_type": "f16"}).outputs[0]
    assert three.shape == (1, 2, 2, 2) and not three.any() and three.dtype == np.float16
    with pytest.raises(SpecViolation):
        _run("Eye", 9, [i32(-1), i32(2), i32(0)], {"output_type": "f32"})


@pytest.mark.parametrize(("start", "stop", "step"), [(2, 23, 3), (23, 2, -3), (1, 2.5, 0.5), (5, 1, 1), (-1, 0.95, 0.1),
                                                     (10, -2.5, -0.75)])
def test_range_values_and_count_from_the_inequalities(start, stop, step) -> None:
    """-1: every val[i] = start + i * step with start <= val < stop (> stop for a negative step), counted one by one."""
    dtype = np.float64 if any(isinstance(v, float) for v in (start, stop, step)) else np.int64
    got = _run("Range", 1, [dtype(start), dtype(stop), dtype(step)]).outputs[0]
    want, i = [], 0
    while (start + i * step < stop) if step > 0 else (start + i * step > stop):
        want.append(start + i * step)
        i += 1
    assert len(got) == len(want)
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-15)
    four = _run("Range", 4, [np.float32(start), np.float32(stop), np.float32(step)], {"output_type": "f64"}).outputs[0]
    assert len(four) == max(int(np.ceil((np.float64(np.float32(stop)) - np.float32(start)) / np.float32(step))), 0)


def test_range_page_examples_casts_and_magnitudes() -> None:
    i32, f32 = np.int32, np.float32
    assert _run("Range", 4, [i32(2), i32(23), i32(3)], {"output_type": "i32"}).outputs[0].tolist() == [2, 5, 8, 11,
                                                                                                       14, 17, 20]
    assert _run("Range", 4, [i32(23), i32(2), i32(-3)], {"output_type": "i32"}).outputs[0].tolist() == [23, 20, 17, 14,
                                                                                                        11, 8, 5]
    assert _run("Range", 4, [f32(1), f32(2.5), f32(0.5)], {"output_type": "f32"}).outputs[0].tolist() == [1, 1.5, 2]
    assert _run("Range", 4, [f32(0.5), f32(7.9), f32(2.7)], {"output_type": "i32"}).outputs[0].tolist() == [0, 2, 4, 6]
    planted = [2 + i * 3 for i in range(1, 8)]  # the first element skipped
    assert planted != _run("Range", 1, [i32(2), i32(23), i32(3)]).outputs[0].tolist()
    m1 = reference.magnitude("openvino", "Range", 1, [f32(-1), f32(1), f32(0.5)], {})[0]
    m4 = reference.magnitude("openvino", "Range", 4, [f32(-1), f32(1), f32(0.5)], {"output_type": "f32"})[0]
    assert m1.tolist() == [1, 1.5, 2, 2.5] and m4.tolist() == [1, 2.5, 4.5, 7]
    with pytest.raises(SpecViolation):
        _run("Range", 4, [f32(0), f32(4), f32(0.5)], {"output_type": "i32"})  # step 0 after the cast
