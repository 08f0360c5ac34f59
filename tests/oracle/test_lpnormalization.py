"""ONNX LpNormalization (reference/onnx_lpnormalization.py) against a loop oracle written from the text, every node
test of the installed onnx, the zero-norm rule and what the text forbids."""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from onnx import helper

import conformance_reference as reference

OP = ("ai.onnx", "LpNormalization")


def _evaluate(x: np.ndarray, version: int = 22, **attributes) -> np.ndarray:
    return reference.evaluate(*OP, version, [x], attributes).outputs[0]


def naive(x: np.ndarray, axis: int, p: int) -> np.ndarray:
    """"output = input / Lp_norm(input, axis)", 0 where the norm is 0: one line at a time, exact rationals for the
    sum (p = 1: the norm is exact; p = 2: one square root of an exact sum, in float64 or better), then the
    quotient rounded once to x's dtype."""
    axis %= x.ndim
    moved = np.moveaxis(x.astype(np.float64), axis, -1)
    out = np.zeros(moved.shape, dtype=np.float64)
    for index in itertools.product(*(range(n) for n in moved.shape[:-1])):
        line = [Fraction(float(v)) for v in moved[index]]
        total = sum(abs(v) ** p for v in line)
        if total == 0:
            continue  # "the output is defined to be zero"
        if p == 1:
            out[index] = [float(v / total) for v in line]
        else:
            norm = Fraction(math.sqrt(total)) if total.denominator == 1 else Fraction(
                math.sqrt(float(total)))
            out[index] = [float(v / norm) for v in line]
    return np.moveaxis(out, -1, axis).astype(x.dtype)


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize(("shape", "axis"), [((7,), -1), ((3, 5), 0), ((3, 5), -1), ((2, 3, 4), 1),
                                             ((2, 3, 4), -2), ((2, 4, 3, 2), 1)])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, ml_dtypes.bfloat16])
def test_matches_the_loop_oracle(p: int, shape: tuple, axis: int, dtype) -> None:
    rng = np.random.default_rng(hash((p, shape, axis)) % 2**32)
    x = rng.standard_normal(shape).astype(dtype)
    got = _evaluate(x, axis=axis, p=p)
    want = naive(x, axis, p)
    assert got.dtype == x.dtype and got.shape == x.shape
    # the oracle's p = 2 root is float64: one ulp of the output type covers its own rounding
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=float(ml_dtypes.finfo(dtype).eps),
                               atol=0)


def test_p1_is_the_sum_of_magnitudes_not_of_values() -> None:
    x = np.array([[1, -2, 4], [-1, 2, -4]], np.float32)
    # along axis 0 each signed sum is 0: the L1 norm is 2, 4, 8
    np.testing.assert_array_equal(_evaluate(x, axis=0, p=1), x / np.array([2, 4, 8], np.float32))
    np.testing.assert_array_equal(_evaluate(np.array([0, -5, 0], np.float32), p=1), [0, -1, 0])


def test_zero_norm_is_zero_and_nan_inf_follow_the_formula() -> None:
    x = np.array([[3, -4], [0, 0]], np.float64)
    np.testing.assert_array_equal(_evaluate(x, axis=1), [[0.6, -0.8], [0, 0]])
    y = _evaluate(np.array([[1, np.nan, 2], [-3, np.inf, 4]], np.float32), p=2)
    assert np.isnan(y[0]).all()
    assert y[1, 0] == 0 and np.isnan(y[1, 1]) and y[1, 2] == 0  # x / inf; inf / inf


def test_the_norm_does_not_overflow_where_the_result_is_representable() -> None:
    x = np.array([3e30, -4e30], np.float32)
    np.testing.assert_allclose(_evaluate(x), [0.6, -0.8], rtol=1e-7)


def test_k_is_the_length_of_the_axis() -> None:
    assert reference.window_elements(*OP, 22, [(2, 5, 3)], {"axis": 1}) == 5
    assert reference.window_elements(*OP, 1, [(2, 5, 3)], {}) == 3


@pytest.mark.parametrize(("attributes", "shape", "dtype"), [
    ({"p": 3}, (2, 3), np.float32), ({"p": 0}, (2, 3), np.float32), ({"axis": 2}, (2, 3), np.float32),
    ({"axis": -3}, (2, 3), np.float32), ({"p": 2.0}, (2, 3), np.float32), ({"epsilon": 1.0}, (2, 3), np.float32),
    ({}, (), np.float32), ({}, (2, 3), np.int32),
])
def test_what_the_text_forbids(attributes: dict, shape: tuple, dtype) -> None:
    with pytest.raises(reference.SpecViolation):
        _evaluate(np.ones(shape, dtype), **attributes)


def test_bfloat16_only_from_22() -> None:
    x = np.ones((2, 2), ml_dtypes.bfloat16)
    with pytest.raises(reference.SpecViolation):
        _evaluate(x, version=1)
    assert _evaluate(x, version=22).dtype == x.dtype


@functools.cache
def _node_tests() -> dict[str, object]:
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import onnx.backend.test.case.node.lpnormalization  # noqa: F401
    return {c.name: c for c in node_cases._NodeTestCases if c.model is not None
            and c.model.graph.node[0].op_type == "LpNormalization"}


def test_node_tests_found() -> None:
    assert len(_node_tests()) >= 6  # onnx 1.23.2: 6; an empty list must not pass


@pytest.mark.parametrize("name", sorted(_node_tests()))
def test_node_tests(name: str) -> None:
    case = _node_tests()[name]
    node = case.model.graph.node[0]
    opset = next(o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx"))
    attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    (inputs, outputs), = case.data_sets
    got = reference.evaluate(*OP, opset, [np.asarray(inputs[0])], attributes).outputs[0]
    # onnx's helpers divide in float32 after a float32 sum: within 2 ulps of the exact quotient
    np.testing.assert_allclose(got, np.asarray(outputs[0]), rtol=2.5e-7, atol=0)
