"""OpenVINO SoftMax-1/-8 and LogSoftmax-5 (reference/_softmax.py) against a loop over every line written from the
text's formula, their axis rules, K, and stability where e^x overflows."""

from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference


def _naive(x: np.ndarray, axis: int, log: bool) -> np.ndarray:
    """y_c = e^{z_c} / sum_d e^{z_d} (its ln for LogSoftmax), one line at a time in Python floats."""
    moved = np.moveaxis(x.astype(np.float64), axis, -1)
    out = np.empty(moved.shape)
    for index in itertools.product(*(range(n) for n in moved.shape[:-1])):
        line = [float(v) for v in moved[index]]
        top = max(line)
        total = math.fsum(math.exp(v - top) for v in line)
        out[index] = [(v - top - math.log(total)) if log else math.exp(v - top) / total for v in line]
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize(("op", "version", "axis", "log"), [
    ("SoftMax", 1, 0, False), ("SoftMax", 1, 1, False), ("SoftMax", 8, -1, False), ("SoftMax", 8, 2, False),
    ("LogSoftmax", 5, 1, True), ("LogSoftmax", 5, -3, True),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_matches_the_texts_formula_line_by_line(op, version, axis, log, dtype) -> None:
    x = np.random.default_rng(version * 10 + axis + 5).uniform(-8, 8, (3, 4, 5)).astype(dtype)
    got = reference.evaluate("openvino", op, version, [x], {"axis": axis}).outputs[0]
    want = _naive(x, axis % 3, log).astype(dtype)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=float(ml_dtypes.finfo(dtype).eps), atol=float(ml_dtypes.finfo(dtype).eps) * 1e-3)


def test_values_whose_exponential_overflows_stay_finite() -> None:
    x = np.array([[10000.0, 9999.0, 9998.0]], np.float32)
    y = reference.evaluate("openvino", "SoftMax", 8, [x], {"axis": 1}).outputs[0]
    np.testing.assert_allclose(y[0], [0.66524096, 0.24472847, 0.09003057], rtol=2e-7)
    y = reference.evaluate("openvino", "LogSoftmax", 5, [x], {"axis": 1}).outputs[0]
    np.testing.assert_allclose(y[0], [-0.40760596, -1.407606, -2.407606], rtol=2e-7)


def test_axis_rules_and_k() -> None:
    x = np.ones((2, 3), np.float32)
    with pytest.raises(reference.SpecViolation):  # SoftMax-1: a "positive integer value"
        reference.evaluate("openvino", "SoftMax", 1, [x], {"axis": -1})
    assert reference.evaluate("openvino", "SoftMax", 8, [x], {"axis": -1}).outputs[0][0, 0] == pytest.approx(1 / 3)
    for op, version in (("SoftMax", 1), ("SoftMax", 8), ("LogSoftmax", 5)):
        with pytest.raises(reference.SpecViolation):  # the default axis 1 of a rank-1 input
            reference.evaluate("openvino", op, version, [np.ones(4, np.float32)], {})
    assert reference.window_elements("openvino", "SoftMax", 8, [(2, 7, 3)], {}) == 7
    assert reference.window_elements("openvino", "LogSoftmax", 5, [(2, 7, 3)], {"axis": -1}) == 3


def test_a_nan_makes_its_line_nan() -> None:
    x = np.array([[np.nan, 0.0, 1.0], [1.0, 2.0, 3.0]], np.float32)
    y = reference.evaluate("openvino", "SoftMax", 8, [x], {"axis": 1}).outputs[0]
    assert np.isnan(y[0]).all() and np.isfinite(y[1]).all()
