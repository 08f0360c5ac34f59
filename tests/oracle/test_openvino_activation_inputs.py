"""The OpenVINO activations whose parameters are inputs (reference/_activations_more.py, openvino_{prelu,selu,
hard_sigmoid,swish}.py) against loops written from each text's formula (Python's math, one element at a time),
their shape rules, and planted mutations the loops catch."""

from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference

ALPHA, LAMBDA = 1.6732632423543772, 1.0507009873554805


def _run(op: str, version: int, inputs: list[np.ndarray]) -> np.ndarray:
    return reference.evaluate("openvino", op, version, inputs, {}).outputs[0]


def _close(got: np.ndarray, want: list[float], dtype) -> None:
    # the loop rounds each of its float64 steps (the reference once, in long double for float64): a few eps apart
    np.testing.assert_allclose(got.astype(np.float64), np.array(want, np.float64).astype(dtype).astype(np.float64),
                               rtol=4 * float(ml_dtypes.finfo(dtype).eps), atol=float(ml_dtypes.finfo(dtype).tiny))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_selu_hard_sigmoid_swish_match_the_formulas(dtype) -> None:
    x = np.random.default_rng(7).uniform(-6, 6, 101).astype(dtype)
    values = x.astype(np.float64).tolist()
    a, lam = np.array([ALPHA], dtype), np.array([LAMBDA], dtype)
    fa, fl = float(a[0]), float(lam[0])
    _close(_run("Selu", 1, [x, a, lam]), [fl * v if v > 0 else fl * fa * (math.exp(v) - 1) for v in values], dtype)
    alpha, beta = np.array(0.2, dtype), np.array(0.5, dtype)
    _close(_run("HardSigmoid", 1, [x, alpha, beta]),
           [max(0.0, min(1.0, float(alpha) * v + float(beta))) for v in values], dtype)
    _close(_run("Swish", 4, [x]), [v / (1 + math.exp(-v)) for v in values], dtype)
    b = np.array(0.75, dtype)
    _close(_run("Swish", 4, [x, b]), [v / (1 + math.exp(-float(b) * v)) for v in values], dtype)


def test_prelu_per_channel_against_a_loop() -> None:
    x = np.random.default_rng(3).normal(size=(2, 3, 3)).astype(np.float32)
    slope = np.array([0.1, 0.2, 0.3], np.float32)
    got = _run("PReLU", 1, [x, slope])
    for n, c, w in itertools.product(range(2), range(3), range(3)):  # the channel is axis 1, not the last axis
        v = float(x[n, c, w])
        assert got[n, c, w] == np.float32(v if v >= 0 else float(slope[c]) * v)


def test_prelu_numpy_otherwise() -> None:
    x = np.random.default_rng(4).normal(size=(2, 3, 4)).astype(np.float32)
    slope = np.array([0.1, 0.2, 0.3, 0.4], np.float32)
    got = _run("PReLU", 1, [x, slope])
    for n, c, w in itertools.product(range(2), range(3), range(4)):
        v = float(x[n, c, w])
        assert got[n, c, w] == np.float32(v if v >= 0 else float(slope[w]) * v)


@pytest.mark.parametrize(("op", "version", "inputs"), [
    ("PReLU", 1, [np.ones((2, 3), np.float32), np.array(0.5, np.float32)]),
    ("PReLU", 1, [np.ones((2, 3), np.float32), np.ones((2, 2, 3), np.float32)]),
    ("Selu", 1, [np.ones(3, np.float32), np.array(1.0, np.float32), np.array([1.0], np.float32)]),
    ("Selu", 1, [np.ones(3, np.float32), np.array([1.0], np.float32), np.array([1.0, 1.0], np.float32)]),
    ("HardSigmoid", 1, [np.ones(3, np.float32), np.array([0.2], np.float32), np.array(0.5, np.float32)]),
    ("Swish", 4, [np.ones(3, np.float32), np.array(-1.0, np.float32)]),
    ("Swish", 4, [np.ones(3, np.float32), np.array([1.0], np.float32)]),
    ("Selu", 1, [np.ones(3, np.float32), np.array([1.0], np.float16), np.array([1.0], np.float32)]),
])
def test_what_the_texts_forbid(op, version, inputs) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", op, version, inputs, {})


def test_the_selu_magnitude_is_lambda_alpha_near_zero() -> None:
    x = np.array([-1e-6, 2.0], np.float32)
    found = reference.magnitude("openvino", "Selu", 1, [x, np.array([ALPHA], np.float32),
                                                         np.array([LAMBDA], np.float32)], {})[0]
    assert found[0] == pytest.approx(ALPHA * LAMBDA, rel=1e-6) and found[1] == pytest.approx(2 * LAMBDA, rel=1e-6)


def test_planted_mutations_are_caught() -> None:
    """PReLU with the slope along the last axis, and Swish with beta doubled, differ from the loops."""
    x = -np.ones((1, 3, 3), np.float32)
    slope = np.array([0.1, 0.2, 0.3], np.float32)
    last_axis = x * slope  # numpy's broadcast: the planted mistake
    assert not np.array_equal(last_axis, _run("PReLU", 1, [x, slope]))
    v = np.array([1.5], np.float32)
    doubled = 1.5 / (1 + math.exp(-2 * 1.5))
    assert abs(float(_run("Swish", 4, [v])[0]) - doubled) > 1e-3
