"""The OpenVINO element-wise ops of two tensors (reference/_binary.py and openvino_{add,subtract,multiply,maximum,
minimum,squared_difference}.py): the broadcast-rules page's examples, one rounding of the exact result, and what
the texts leave open or forbid."""

from __future__ import annotations

import itertools
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference._binary import broadcast_shape

OPS = {"Add": lambda x, y: x + y, "Subtract": lambda x, y: x - y, "Multiply": lambda x, y: x * y,
       "Maximum": max, "Minimum": min, "SquaredDifference": lambda x, y: (x - y) * (x - y)}


def _run(op: str, a: np.ndarray, b: np.ndarray, mode: str = "numpy") -> reference.Result:
    return reference.evaluate("openvino", op, 1, [a, b], {"auto_broadcast": mode})


@pytest.mark.parametrize(("a", "b", "out"), [
    ((), (), ()), ((2, 3), (1,), (2, 3)), ((3,), (2, 3), (2, 3)), ((2, 3, 5), (), (2, 3, 5)),
    ((2, 1, 5), (1, 4, 5), (2, 4, 5)), ((6, 5), (2, 1, 5), (2, 6, 5)), ((2, 1, 5), (4, 1), (2, 4, 5)),
    ((3, 2, 1, 4), (5, 4), (3, 2, 5, 4)), ((1, 5, 3), (5, 2, 1, 3), (5, 2, 5, 3)),
])
def test_the_pages_numpy_examples(a, b, out) -> None:
    assert broadcast_shape("t", a, b, "numpy")[0] == out


@pytest.mark.parametrize(("a", "b", "aligned"), [
    ((2, 3, 4, 5), (4, 5), (1, 1, 4, 5)), ((2, 3, 4, 5), (5,), (1, 1, 1, 5)), ((2, 3, 4, 5), (), (1, 1, 1, 1)),
    ((2, 3, 4, 5), (4, 1), (1, 1, 4, 1)),  # trailing 1s ignored: B is (4) from axis 2
])
def test_the_pages_pdpd_examples_with_the_default_axis(a, b, aligned) -> None:
    assert broadcast_shape("t", a, b, "pdpd") == (a, aligned)


@pytest.mark.parametrize(("a", "b", "mode"), [
    ((3,), (2,), "numpy"), ((3, 1, 5), (4, 4, 5), "numpy"), ((8, 1, 6, 1), (7, 1, 5), "pdpd"),
    ((3, 4), (2, 3, 4), "pdpd"), ((2, 3), (3,), "none"),
])
def test_what_does_not_broadcast(a, b, mode) -> None:
    with pytest.raises(reference.SpecViolation):
        broadcast_shape("t", a, b, mode)


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_one_rounding_of_the_exact_result(op, dtype) -> None:
    rng = np.random.default_rng(len(op))
    a = rng.uniform(-100, 100, (3, 7)).astype(dtype)
    b = rng.uniform(-100, 100, (7,)).astype(dtype)
    got = _run(op, a, b).outputs[0]
    for i, j in itertools.product(range(3), range(7)):
        exact = OPS[op](Fraction(float(a[i, j])), Fraction(float(b[j])))
        want = np.array([float(exact)], dtype=np.float64).astype(np.float32 if dtype != np.float64 else np.float64)
        # the exact rational rounded once: to float64 here, then to the type (innocuous: 53 >= 2p + 2)
        assert got[i, j] == np.asarray(want).astype(dtype)[0], (op, i, j)


def test_integers_exact_and_overflow_unspecified() -> None:
    a, b = np.array([127, -128, 100, 1], np.int8), np.array([100, 100, -100, 1], np.int8)
    found = _run("Add", a, b)
    assert found.unspecified[0].tolist() == [True, False, False, False]
    assert found.outputs[0].tolist()[1:] == [-28, 0, 2]
    big = np.array([2**62], np.int64)
    assert _run("Subtract", big, np.array([-(2**62)], np.int64)).unspecified[0].tolist() == [True]  # 2^63
    assert _run("Subtract", big, np.array([-(2**62) + 1], np.int64)).outputs[0].tolist() == [2**63 - 1]
    assert _run("Multiply", np.array([3], np.uint8), np.array([85], np.uint8)).outputs[0].tolist() == [255]


def test_maximum_and_minimum_leave_a_nan_operand_open() -> None:
    a, b = np.array([np.nan, 1.0, 2.0], np.float32), np.array([1.0, np.nan, 3.0], np.float32)
    for op in ("Maximum", "Minimum"):
        assert _run(op, a, b).unspecified[0].tolist() == [True, True, False]
    assert _run("Add", a, b).unspecified[0] is None  # NaN + x is NaN in every reading


def test_float64_at_the_edges_of_the_type() -> None:
    y = _run("Multiply", np.array([1e308, -1e308]), np.array([10.0, 10.0])).outputs[0]
    assert y.tolist() == [np.inf, -np.inf]
    y = _run("Add", np.array([np.inf, np.inf]), np.array([-np.inf, 1.0])).outputs[0]
    assert np.isnan(y[0]) and y[1] == np.inf


def test_the_types_must_match_and_be_numeric() -> None:
    with pytest.raises(reference.SpecViolation):
        _run("Add", np.ones(2, np.float32), np.ones(2, np.float16))
    with pytest.raises(reference.SpecViolation):
        _run("Add", np.ones(2, bool), np.ones(2, bool))
    with pytest.raises(reference.SpecViolation):
        _run("Add", np.ones(2, np.float32), np.ones(2, np.float32), mode="bogus")
