"""The OpenVINO comparison and logical ops, IsFinite/IsInf/IsNaN and Select (reference/_compare.py, _mapped.py,
openvino_{equal,...,select}.py) against loops written from each text's formula, one element at a time, the
values the pages print, and a planted mutation the loops catch."""

from __future__ import annotations

import itertools
import math
import operator

import numpy as np
import pytest

import conformance_reference as reference

COMPARISONS = {"Equal": operator.eq, "NotEqual": operator.ne, "Greater": operator.gt, "GreaterEqual": operator.ge,
               "Less": operator.lt, "LessEqual": operator.le}
LOGICAL = {"LogicalAnd": lambda x, y: x and y, "LogicalOr": lambda x, y: x or y, "LogicalXor": lambda x, y: x != y}


def _loop(formula, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """o_i = formula(a_i, b_i) over the numpy-broadcast index space, element by element (Python scalars)."""
    shape = np.broadcast_shapes(a.shape, b.shape)
    out = np.zeros(shape, dtype=bool)
    for index in itertools.product(*map(range, shape)):
        ia = tuple(i if d != 1 else 0 for i, d in zip(index[len(index) - a.ndim:], a.shape))
        ib = tuple(i if d != 1 else 0 for i, d in zip(index[len(index) - b.ndim:], b.shape))
        x, y = a[ia].item(), b[ib].item()
        out[index] = formula(float(x) if isinstance(x, float) else x, float(y) if isinstance(y, float) else y)
    return out


@pytest.mark.parametrize("op", sorted(COMPARISONS))
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, np.int8, np.uint16, np.int64])
def test_comparisons_match_the_formula(op, dtype) -> None:
    rng = np.random.default_rng(len(op))
    a = rng.integers(-3, 4, (2, 3, 4)).astype(dtype)
    b = rng.integers(-3, 4, (3, 1)).astype(dtype)  # small integers: many ties
    got = reference.evaluate("openvino", op, 1, [a, b], {}).outputs[0]
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, _loop(COMPARISONS[op], a, b))


@pytest.mark.parametrize("op", sorted(COMPARISONS))
def test_nan_is_unordered_and_zeros_equal(op) -> None:
    a = np.array([np.nan, np.nan, 1.0, 0.0, -np.inf], np.float32)
    b = np.array([np.nan, 1.0, np.nan, -0.0, np.inf], np.float32)
    got = reference.evaluate("openvino", op, 1, [a, b], {}).outputs[0]
    # IEEE 754: every ordered comparison with NaN is false, != true; -0 == +0
    assert got.tolist() == [COMPARISONS[op](float(x), float(y)) for x, y in zip(a, b)]


def test_int64_is_compared_in_its_own_type() -> None:
    a, b = np.array([2**63 - 1, 2**53 + 1], np.int64), np.array([2**63 - 2, 2**53], np.int64)
    assert reference.evaluate("openvino", "Equal", 1, [a, b], {}).outputs[0].tolist() == [False, False]
    assert reference.evaluate("openvino", "Greater", 1, [a, b], {}).outputs[0].tolist() == [True, True]


@pytest.mark.parametrize("op", sorted(LOGICAL))
def test_logical_truth_tables(op) -> None:
    a = np.array([[True], [False]])
    b = np.array([True, False])
    got = reference.evaluate("openvino", op, 1, [a, b], {}).outputs[0]
    np.testing.assert_array_equal(got, _loop(LOGICAL[op], a, b))
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", op, 1, [a.astype(np.float32), b.astype(np.float32)], {})


def test_logical_not() -> None:
    assert reference.evaluate("openvino", "LogicalNot", 1, [np.array([True, False])], {}).outputs[0].tolist() == [
        False, True]


def test_the_pages_printed_values() -> None:
    nan, inf = math.nan, math.inf
    x = np.array([nan, 2.1, 3.7, inf], np.float32)
    assert reference.evaluate("openvino", "IsFinite", 10, [x], {}).outputs[0].tolist() == [False, True, True, False]
    x = np.array([nan, 2.1, 3.7, nan, inf], np.float32)
    assert reference.evaluate("openvino", "IsNaN", 10, [x], {}).outputs[0].tolist() == [True, False, False, True,
                                                                                           False]
    cond = np.array([[False, False], [True, False], [True, True]])
    then = np.array([[-1, 0], [1, 2], [3, 4]], np.float32)
    other = np.array([[11, 10], [9, 8], [7, 6]], np.float32)
    got = reference.evaluate("openvino", "Select", 1, [cond, then, other], {}).outputs[0]
    assert got.tolist() == [[11, 10], [1, 8], [3, 4]]


@pytest.mark.parametrize(("negative", "positive"), list(itertools.product([False, True], repeat=2)))
def test_is_inf_detects_what_it_is_told(negative, positive) -> None:
    x = np.array([np.inf, -np.inf, np.nan, 0.0, 3e38, 1e-40], np.float32)
    got = reference.evaluate("openvino", "IsInf", 10, [x], {"detect_negative": negative,
                                                            "detect_positive": positive}).outputs[0]
    want = [(v == math.inf and positive) or (v == -math.inf and negative) for v in map(float, x)]
    assert got.tolist() == want
    assert reference.evaluate("openvino", "IsFinite", 10, [x], {}).outputs[0].tolist() == [
        math.isfinite(v) for v in map(float, x)]  # a subnormal is finite


def test_select_broadcasts_then_and_else_and_cond_one_way() -> None:
    cond = np.array([True, False, True])
    then, other = np.arange(2, dtype=np.int32).reshape(2, 1), np.full((1, 3), 9, np.int32)
    got = reference.evaluate("openvino", "Select", 1, [cond, then, other], {}).outputs[0]
    want = [[then[i, 0] if cond[j] else other[0, j] for j in range(3)] for i in range(2)]
    assert got.tolist() == want
    with pytest.raises(reference.SpecViolation):  # cond would enlarge the result: not one-way
        reference.evaluate("openvino", "Select", 1, [np.ones((2, 1, 3), bool), then, other], {})
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "Select", 1, [cond.astype(np.float32), then, other], {})


def test_a_planted_mutation_is_caught() -> None:
    """GreaterEqual computed as Greater (an off-by-one at ties) differs from the loop."""
    a, b = np.array([1, 2, 3], np.int32), np.array([2, 2, 2], np.int32)
    mutated = np.greater(a, b)
    assert not np.array_equal(mutated, _loop(operator.ge, a, b))
    np.testing.assert_array_equal(reference.evaluate("openvino", "GreaterEqual", 1, [a, b], {}).outputs[0],
                                  _loop(operator.ge, a, b))
