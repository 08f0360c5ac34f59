"""The OpenVINO Divide, FloorMod, Mod, Power, Round-5 and Atan2-17 (reference/_division.py, openvino_{divide,
floor_mod,mod,power,round,atan2}.py) against loops written from each text's formula and identity, the worked
example Round's page prints, and planted mutations the loops catch."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference


def _run(op: str, version: int, inputs: list[np.ndarray], attributes: dict | None = None) -> reference.Result:
    return reference.evaluate("openvino", op, version, inputs, attributes or {})


def _pairs(dtype) -> tuple[np.ndarray, np.ndarray]:
    a = np.array([7, -7, 7, -7, 0, 100, -100, 1], dtype)
    b = np.array([2, 2, -2, -2, 3, 7, 7, -1], dtype)
    return a, b


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_integer_division_floor_and_truncated(dtype) -> None:
    a, b = _pairs(dtype)
    floor = _run("Divide", 1, [a, b], {"m_pythondiv": True}).outputs[0]
    trunc = _run("Divide", 1, [a, b], {"m_pythondiv": False}).outputs[0]
    for x, y, f, t in zip(a.tolist(), b.tolist(), floor.tolist(), trunc.tolist()):
        assert f == math.floor(Fraction(x, y))  # floor division
        assert t == math.trunc(Fraction(x, y))  # C's division


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_the_remainders_satisfy_their_identities(dtype) -> None:
    a, b = _pairs(dtype)
    floor_mod = _run("FloorMod", 1, [a, b]).outputs[0]
    mod = _run("Mod", 1, [a, b]).outputs[0]
    for x, y, f, m in zip(a.tolist(), b.tolist(), floor_mod.tolist(), mod.tolist()):
        # floor(x / y) * y + floor_mod = x (the divisor's sign); truncated(x / y) * y + mod = x (the dividend's)
        assert math.floor(Fraction(x, y)) * y + f == x and (f == 0 or (f < 0) == (y < 0))
        assert math.trunc(Fraction(x, y)) * y + m == x and (m == 0 or (m < 0) == (x < 0))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_float_results_are_the_exact_values_rounded_once(dtype) -> None:
    rng = np.random.default_rng(5)
    a = rng.uniform(-50, 50, 64).astype(dtype)
    b = rng.uniform(0.5, 4, 64).astype(dtype) * np.where(rng.random(64) < 0.5, -1, 1).astype(dtype)
    got = {op: _run(op, 1, [a, b]).outputs[0] for op in ("Divide", "FloorMod", "Mod")}
    for i, (x, y) in enumerate(zip(a.astype(np.float64).tolist(), b.astype(np.float64).tolist())):
        fx, fy = Fraction(x), Fraction(y)
        exact = {"Divide": fx / fy, "FloorMod": fx - math.floor(fx / fy) * fy, "Mod": fx - math.trunc(fx / fy) * fy}
        for op, value in exact.items():
            want = np.array([float(value)]).astype(dtype)[0] if dtype == np.float64 else \
                np.array([float(value)], np.float64).astype(np.float32).astype(dtype)[0]
            assert got[op][i] == want or float(got[op][i]) == float(value), (op, x, y)


def test_division_by_zero_is_unspecified() -> None:
    for dtype in (np.int32, np.float32):
        a, b = np.array([1, 4], dtype), np.array([0, 2], dtype)
        for op in ("Divide", "FloorMod", "Mod"):
            assert _run(op, 1, [a, b]).unspecified[0].tolist() == [True, False]


def test_the_remainders_refuse_pdpd() -> None:
    for op in ("FloorMod", "Mod", "Power"):
        with pytest.raises(reference.SpecViolation):
            _run(op, 1, [np.ones((2, 3), np.float32), np.ones((3,), np.float32)], {"auto_broadcast": "pdpd"})


def test_integer_power_is_exact_and_a_fraction_unspecified() -> None:
    a, b = np.array([3, 2, 2, 1, -1], np.int64), np.array([39, 62, -1, -3, -3], np.int64)
    found = _run("Power", 1, [a, b])
    assert found.outputs[0].tolist()[:2] == [3**39, 2**62]
    assert found.unspecified[0].tolist() == [False, False, True, False, False]
    assert found.outputs[0].tolist()[3:] == [1, -1]


def test_float_power_matches_pow() -> None:
    a = np.array([0.5, 2.0, 10.0, -2.0, -2.0], np.float32)
    b = np.array([3.0, -2.5, 0.5, 3.0, 0.5], np.float32)
    got = _run("Power", 1, [a, b]).outputs[0].astype(np.float64)
    want = [math.pow(x, y) if not (x < 0 and y != int(y)) else math.nan for x, y in zip(a.tolist(), b.tolist())]
    np.testing.assert_allclose(got, want, rtol=2**-23)


X = [-4.5, -1.9, -1.5, 0.5, 0.9, 1.5, 2.3, 2.5]


@pytest.mark.parametrize(("mode", "want"), [
    ("half_to_even", [-4.0, -2.0, -2.0, 0.0, 1.0, 2.0, 2.0, 2.0]),
    ("half_away_from_zero", [-5.0, -2.0, -2.0, 1.0, 1.0, 2.0, 2.0, 3.0])])
def test_round_the_pages_worked_example(mode, want) -> None:
    assert _run("Round", 5, [np.array(X, np.float32)], {"mode": mode}).outputs[0].tolist() == want


def _round_loop(v: float, mode: str) -> float:
    """The nearest integer; a half to the even one or away from zero (exact with Fractions)."""
    f = Fraction(v)
    low = math.floor(f)
    if f - low != Fraction(1, 2):
        return float(low if f - low < Fraction(1, 2) else low + 1)
    if mode == "half_to_even":
        return float(low if low % 2 == 0 else low + 1)
    return float(low + 1 if f > 0 else low)


@pytest.mark.parametrize("mode", ["half_to_even", "half_away_from_zero"])
def test_round_matches_the_loop(mode) -> None:
    x = np.concatenate([np.random.default_rng(3).uniform(-20, 20, 200),
                        np.arange(-6, 6.5, 0.5), [0.49999997, -0.49999997, 8388607.5]]).astype(np.float32)
    got = _run("Round", 5, [x], {"mode": mode}).outputs[0]
    assert got.tolist() == [_round_loop(v, mode) for v in x.astype(np.float64).tolist()]


def test_atan2_matches_math_and_leaves_the_origin_open() -> None:
    y = np.array([1.0, 1.0, -1.0, -1.0, 0.0, -0.0, 0.0], np.float64)
    x = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0, 0.0], np.float64)
    found = _run("Atan2", 17, [y, x])
    np.testing.assert_array_equal(found.outputs[0][:6], [math.atan2(a, b) for a, b in zip(y[:6], x[:6])])
    assert found.unspecified[0].tolist() == [False] * 6 + [True]


def test_planted_mutations_are_caught() -> None:
    """Floor division planted as truncation, and Mod's sign as FloorMod's, differ from the loops."""
    a, b = np.array([-7], np.int32), np.array([2], np.int32)
    assert np.trunc(-7 / 2) != math.floor(Fraction(-7, 2))
    assert _run("Divide", 1, [a, b]).outputs[0].tolist() == [math.floor(Fraction(-7, 2))]
    assert (-7 % 2) != _run("Mod", 1, [a, b]).outputs[0].tolist()[0]  # Python's % is FloorMod, not Mod
