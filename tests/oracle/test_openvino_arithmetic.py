"""The OpenVINO element-wise arithmetic of one tensor (reference/openvino_{abs,...,sqrt}.py) against scalar loops
written from each text's formula (Python's math), the integer roundings the texts state (and leave open), the
elements they leave unspecified, and what they forbid."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference

FORMULAS = [
    ("Abs", abs, (-9, 9)), ("Ceiling", math.ceil, (-9, 9)), ("Floor", math.floor, (-9, 9)),
    ("Negative", lambda v: -v, (-9, 9)), ("Sign", lambda v: (v > 0) - (v < 0), (-9, 9)),
    ("Sin", math.sin, (-7, 7)), ("Cos", math.cos, (-7, 7)), ("Tan", math.tan, (-1.5, 1.5)),
    ("Sinh", math.sinh, (-9, 9)), ("Cosh", math.cosh, (-9, 9)), ("Tanh", math.tanh, (-5, 5)),
    ("Asin", math.asin, (-1, 1)), ("Acos", math.acos, (-1, 1)), ("Atan", math.atan, (-9, 9)),
    ("Erf", math.erf, (-3, 3)), ("Log", math.log, (0.001, 50)), ("Sqrt", math.sqrt, (0, 50)),
    ("Acosh", math.acosh, (1, 20)), ("Asinh", math.asinh, (-20, 20)),
]
#: the ops whose one version is not 1
VERSION = {"Acosh": 3, "Asinh": 3}


def _run(op: str, x: np.ndarray) -> reference.Result:
    return reference.evaluate("openvino", op, VERSION.get(op, 1), [x], {})


@pytest.mark.parametrize(("op", "formula", "bounds"), FORMULAS, ids=[f[0] for f in FORMULAS])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_matches_the_texts_formula_element_by_element(op, formula, bounds, dtype) -> None:
    x = np.random.default_rng(len(op) * 17).uniform(*bounds, 301).astype(dtype)
    got = _run(op, x).outputs[0]
    want = np.array([formula(float(v)) for v in x.astype(np.float64)], dtype=np.float64)
    assert got.dtype == x.dtype and got.shape == x.shape
    eps = float(ml_dtypes.finfo(dtype).eps)
    # float64: the reference's long double and Python's double math agree to a few float64 ulps
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=eps * (4 if dtype == np.float64 else 1),
                               atol=float(ml_dtypes.finfo(dtype).tiny))


def test_integers_round_as_each_text_says() -> None:
    # Sqrt's example 2: "For integer element type the result is rounded (half up)"
    assert _run("Sqrt", np.array([4, 7, 9, 10], np.int32)).outputs[0].tolist() == [2, 3, 3, 3]
    # Tan's worked example 2 on integers
    assert _run("Tan", np.array([-2, -1, 0, 1, 2], np.int32)).outputs[0].tolist() == [2, -2, 0, 2, -2]
    # Sin states no rounding: only integral results are specified (sin(0) = 0)
    found = _run("Sin", np.array([0, 1, 2], np.int32))
    assert found.outputs[0][0] == 0 and found.unspecified[0].tolist() == [False, True, True]
    assert _run("Floor", np.array([-3, 4], np.int64)).outputs[0].tolist() == [-3, 4]
    big = np.array([2**62 + 1], np.int64)  # exact ops stay in the integers: no float64 on the way
    assert _run("Negative", big).outputs[0].tolist() == [-(2**62 + 1)]


def test_unspecified_where_the_text_is_silent_or_the_type_overflows() -> None:
    f = np.array([-2.0, -0.5, 0.0, 0.5, 2.0], np.float32)
    assert _run("Asin", f).unspecified[0].tolist() == [True, False, False, False, True]
    assert _run("Acos", f).unspecified[0].tolist() == [True, False, False, False, True]
    assert _run("Log", f).unspecified[0].tolist() == [True, True, False, False, False]
    assert _run("Acosh", f).unspecified[0].tolist() == [True, True, True, True, False]  # below 1
    assert _run("Sqrt", f).unspecified[0].tolist() == [True, True, False, False, False]  # "the result is undefined"
    assert _run("Log", np.array([0.0], np.float32)).outputs[0].tolist() == [-math.inf]
    i8 = np.array([-128, -1, 127], np.int8)
    assert _run("Abs", i8).unspecified[0].tolist() == [True, False, False]
    assert _run("Negative", i8).unspecified[0].tolist() == [True, False, False]


def test_sign_returns_nan_for_nan_and_erf_is_the_gauss_error_function() -> None:
    # Sign's text: "nan is returned for nan inputs"
    assert np.isnan(_run("Sign", np.array([np.nan], np.float32)).outputs[0][0])
    # the text's integral has 1/pi where erf has 1/sqrt(pi); the reference is erf (a factor sqrt(pi) apart)
    y = _run("Erf", np.array([1.0], np.float64)).outputs[0][0]
    assert y == pytest.approx(math.erf(1.0), rel=1e-15) and y != pytest.approx(math.erf(1.0) / math.sqrt(math.pi))


@pytest.mark.parametrize(("op", "x"), [
    ("Negative", np.array([1, 2], np.uint8)),  # "any supported signed numeric type"
    ("Abs", np.array([True, False])),  # a numeric type
    ("Sin", np.array([1.0], np.float32)),  # with an attribute it does not define (below)
])
def test_what_the_texts_forbid(op, x) -> None:
    attributes = {"bogus": 1} if op == "Sin" else {}
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", op, 1, [x], attributes)
