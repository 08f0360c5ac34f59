"""OpenVINO Bucketize-3 and SearchSorted-15 (reference/_search.py) against loops written from the texts (a bucket's
interval, the leftmost or rightmost insertion point), the page's worked values and shapes, NaN, and what the texts
forbid."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


def _bucket(x: float, bounds: list[float], right: bool) -> int:
    """The text's intervals: right bound included, bucket i holds b[i-1] < x <= b[i]; else b[i-1] <= x < b[i]."""
    for i, b in enumerate(bounds):
        if (x <= b) if right else (x < b):
            return i
    return len(bounds)


@pytest.mark.parametrize("right", [True, False])
@pytest.mark.parametrize(("dtype", "bounds_dtype"), [(np.float32, np.float32), (np.int32, np.float64),
                                                     (np.int64, np.int8), (np.float16, np.int64)])
def test_bucketize_matches_the_intervals(right, dtype, bounds_dtype) -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(-12, 12, (4, 6)).astype(dtype)
    bounds = np.array([-10, -3, 0, 4, 9], bounds_dtype)
    got = reference.evaluate("openvino", "Bucketize", 3, [x, bounds], {"with_right_bound": right}).outputs[0]
    want = [[_bucket(float(v), [float(b) for b in bounds], right) for v in row] for row in x]
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.int64


def test_bucketize_the_pages_values_and_output_type() -> None:
    result = reference.evaluate("openvino", "Bucketize", 3, [np.array([[3, 50], [10, -1]], np.int32),
                                                              np.array([0, 5, 10], np.int32)], {"output_type": "i32"})
    np.testing.assert_array_equal(result.outputs[0], [[1, 3], [2, 0]])
    assert result.outputs[0].dtype == np.int32
    empty = reference.evaluate("openvino", "Bucketize", 3, [np.array([1.0, 2.0], np.float32),
                                                             np.zeros(0, np.float32)], {})
    np.testing.assert_array_equal(empty.outputs[0], [0, 0])


def test_bucketize_compares_exactly_across_types() -> None:
    big = np.array([2**62 + 1], np.int64)  # float64 cannot hold it: its boundary 2^62 lies below
    got = reference.evaluate("openvino", "Bucketize", 3, [big, np.array([2.0**62], np.float64)], {}).outputs[0]
    np.testing.assert_array_equal(got, [1])


def _insert(row: list[float], v: float, right: bool) -> int:
    return sum(1 for e in row if (e <= v if right else e < v))


@pytest.mark.parametrize("right", [True, False])
def test_search_sorted_matches_the_insertion_point_per_row(right) -> None:
    rng = np.random.default_rng(6)
    seq = np.sort(rng.integers(-5, 5, (2, 3, 7)), axis=-1).astype(np.float32)
    values = rng.integers(-6, 6, (2, 3, 4)).astype(np.float32)
    got = reference.evaluate("openvino", "SearchSorted", 15, [seq, values], {"right_mode": right}).outputs[0]
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        assert got[i, j, k] == _insert(list(seq[i, j]), float(values[i, j, k]), right)


def test_search_sorted_one_d_sequence_serves_any_shape_and_nan_is_open() -> None:
    seq = np.array([1.0, 3.0, 5.0], np.float32)
    values = np.array([[0.0, 3.0], [np.nan, 9.0]], np.float32)
    result = reference.evaluate("openvino", "SearchSorted", 15, [seq, values], {})
    np.testing.assert_array_equal(result.outputs[0][[0, 0, 1], [0, 1, 1]], [0, 1, 3])
    np.testing.assert_array_equal(result.unspecified[0], [[False, False], [True, False]])


def test_search_sorted_shape_of_the_pages_example() -> None:
    shapes = [(7, 256, 200, 200), (7, 256, 200, 10)]
    assert reference.output_shapes("openvino", "SearchSorted", 15, shapes, {"right_mode": True}) == [shapes[1]]


@pytest.mark.parametrize(("op", "version", "inputs"), [
    ("Bucketize", 3, [np.array([1.0], np.float32), np.array([2.0, 1.0], np.float32)]),  # unsorted
    ("Bucketize", 3, [np.array([1.0], np.float32), np.array([1.0, 1.0], np.float32)]),  # not unique
    ("Bucketize", 3, [np.array([1.0], np.float32), np.array([[0.0, 1.0]], np.float32)]),  # not 1-D
    ("SearchSorted", 15, [np.array([2.0, 1.0], np.float32), np.array([1.0], np.float32)]),  # not increasing
    ("SearchSorted", 15, [np.array(1.0, np.float32), np.array([1.0], np.float32)]),  # a scalar sequence
    ("SearchSorted", 15, [np.zeros((2, 3), np.float32), np.zeros((3, 3), np.float32)]),  # leading extents
    ("SearchSorted", 15, [np.zeros(3, np.float32), np.zeros(3, np.int32)]),  # one type T
])
def test_what_the_texts_forbid(op, version, inputs) -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", op, version, inputs, {})
