"""ONNX LpPool and GlobalLpPool references (reference/onnx_lppool.py, onnx_globallppool.py, _pnorm.py): property
tests against the naive loop oracle (tests/oracle/naive_lppool.py), one test per SpecViolation rule, version
gating and the documented choices (docs/spec-notes.md, "LpPool (ONNX)")."""

from __future__ import annotations

import math

import naive_lppool as naive
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from lppool_check import BF16, assert_close, check_global_lppool, check_lppool

import conformance_reference as reference
from conformance_reference import onnx_lppool

SETTINGS = settings(
    derandomize=True, max_examples=60, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
VERSIONS = (1, 2, 11, 18, 22)
GLOBAL_VERSIONS = (1, 2, 22)


def _dtype(name: str) -> np.dtype:
    return BF16 if name == "bfloat16" else np.dtype(name)


def _p(draw: st.DrawFn, version: int) -> float | int:
    if version == 1:
        return draw(st.sampled_from([1.0, 2.0, 3.0, 0.5, 1.5, 7.0]))
    return draw(st.sampled_from([1, 2, 3, 4, 9]))


def _values(draw: st.DrawFn, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["normal", "ties", "specials", "wide"]))
    if kind == "ties":
        data = rng.integers(-3, 4, size=shape).astype(np.float64)
    elif kind == "wide":  # magnitudes whose powers overflow / underflow the dtype
        data = rng.standard_normal(shape) * 10.0 ** rng.integers(-8, 9, size=shape)
    else:
        data = rng.standard_normal(shape) * 3
    if kind == "specials":
        pick = rng.random(shape) < 0.25
        data[pick] = rng.choice(np.array([math.nan, math.inf, -math.inf, 0.0, -0.0]), size=int(pick.sum()))
    with np.errstate(over="ignore"):  # "wide" magnitudes beyond float16 become inf, a value like any other
        return data.astype(dtype)


@st.composite
def lppool_cases(draw: st.DrawFn, version: int) -> tuple[np.ndarray, dict]:
    rank = draw(st.integers(1, 3))
    size_hi, kernel_hi, pad_hi = {1: (8, 4, 4), 2: (6, 3, 3), 3: (4, 3, 2)}[rank]
    ints = lambda lo, hi: st.lists(st.integers(lo, hi), min_size=rank, max_size=rank)  # noqa: E731
    sizes = draw(ints(1, size_hi))
    attrs: dict = {"kernel_shape": draw(ints(1, kernel_hi))}
    if draw(st.booleans()):
        attrs["p"] = _p(draw, version)
    if draw(st.booleans()):
        attrs["strides"] = draw(ints(1, 3))
    auto = draw(st.sampled_from(["NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"]))
    if auto != "NOTSET" or draw(st.booleans()):
        attrs["auto_pad"] = auto
    if auto == "NOTSET" and draw(st.booleans()):
        attrs["pads"] = draw(ints(0, pad_hi)) + draw(ints(0, pad_hi))
    if version >= 18 and draw(st.booleans()):
        attrs["ceil_mode"] = draw(st.integers(0, 1))
    if version >= 18 and draw(st.booleans()):
        attrs["dilations"] = draw(ints(1, 2))
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 2)), *sizes)
    dtype = _dtype(draw(st.sampled_from(onnx_lppool.SCHEMA.supported_dtypes(version))))
    return _values(draw, shape, dtype), attrs


@pytest.mark.parametrize("version", VERSIONS)
@SETTINGS
@given(data=st.data())
def test_lppool_against_naive_oracle(version: int, data: st.DataObject) -> None:
    x, attrs = data.draw(lppool_cases(version))
    event(f"rank {x.ndim - 2}, {x.dtype}, p {attrs.get('p', 2)}, auto_pad {attrs.get('auto_pad', 'NOTSET')}")
    event(check_lppool(version, x, attrs))


@pytest.mark.parametrize("version", GLOBAL_VERSIONS)
@SETTINGS
@given(data=st.data())
def test_global_lppool_against_naive_oracle(version: int, data: st.DataObject) -> None:
    rank = data.draw(st.integers(1, 3))
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3)),
             *data.draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank)))
    dtype = _dtype(data.draw(st.sampled_from(reference.supported_dtypes("ai.onnx", "GlobalLpPool", version))))
    attrs: dict = {}
    if data.draw(st.booleans()):
        attrs["p"] = data.draw(st.sampled_from([1.0, 2.0, 3.0, 0.5, 2.5] if version == 1 else [1, 2, 3, 5]))
    check_global_lppool(version, _values(data.draw, shape, dtype), attrs)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32", "float64", "int8"])
def test_every_dtype_of_every_version(version: int, dtype: str) -> None:
    x = (np.arange(2 * 3 * 5 * 4) * 7 % 11 - 5).reshape(2, 3, 5, 4).astype(_dtype(dtype))
    attrs = {"kernel_shape": [2, 3], "pads": [1, 0, 1, 2], "strides": [2, 1], "p": 3.0 if version == 1 else 3}
    if dtype not in onnx_lppool.SCHEMA.supported_dtypes(version):
        with pytest.raises(reference.SpecViolation):
            reference.evaluate("ai.onnx", "LpPool", version, [x], attrs)
        return
    check_lppool(version, x, attrs)


def test_supported_dtypes_per_version() -> None:
    floats = {"float16", "float32", "float64"}
    for op, versions in (("LpPool", (1, 2, 11, 18)), ("GlobalLpPool", (1, 2, 21))):
        for v in versions:
            assert set(reference.supported_dtypes("ai.onnx", op, v)) == floats
        assert set(reference.supported_dtypes("ai.onnx", op, 22)) == floats | {"bfloat16"}


@pytest.mark.parametrize("opset, since", [(1, 1), (2, 2), (10, 2), (11, 11), (17, 11), (18, 18), (21, 18),
                                          (22, 22), (28, 22)])
def test_resolve(opset: int, since: int) -> None:
    assert reference.resolve("ai.onnx", "LpPool", opset) == since


# ---------------------------------------------------------------------------------------------------------------
# the doc example with literal values, and the choices

def test_doc_example_2d_dilations() -> None:
    x = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)
    attrs = {"kernel_shape": [2, 2], "strides": [1, 1], "dilations": [2, 2], "p": 2}
    want = np.array([[[[14.560219778561036, 16.24807680927192],
                       [21.633307652783937, 23.49468024894146]]]], dtype=np.float32)
    for version in (18, 22):
        np.testing.assert_array_equal(reference.evaluate("ai.onnx", "LpPool", version, [x], attrs).outputs[0], want)


def _y(version: int, data, attrs: dict, dtype=np.float32) -> list[float]:
    x = np.asarray(data, dtype=dtype).reshape(1, 1, -1)
    return reference.evaluate("ai.onnx", "LpPool", version, [x], attrs).outputs[0].ravel().astype(float).tolist()


def test_default_p_is_2_and_abs_is_taken() -> None:
    assert _y(11, [3, -4, 0], {"kernel_shape": [2]}) == [5.0, 4.0]
    assert _y(1, [3, -4, 0], {"kernel_shape": [2]}) == [5.0, 4.0]
    assert _y(11, [-1, -2], {"kernel_shape": [2], "p": 1}) == [3.0]
    assert _y(11, [-2, -2], {"kernel_shape": [2], "p": 3}) == pytest.approx([2 * 2 ** (1 / 3)], rel=1e-7)


def test_window_in_padding_is_zero_and_ceil_window_kept_before_22() -> None:
    assert _y(11, [1, 2, 3, 4], {"kernel_shape": [2], "pads": [2, 2]}) == pytest.approx(
        [0, 1, 5 ** 0.5, 13 ** 0.5, 5, 4, 0], rel=1e-7)
    ceil = {"kernel_shape": [2], "strides": [2], "pads": [0, 1], "ceil_mode": 1}
    assert _y(18, [1, 2, 3, 4], ceil) == pytest.approx([5 ** 0.5, 5, 0], rel=1e-7)
    assert _y(22, [1, 2, 3, 4], ceil) == pytest.approx([5 ** 0.5, 5], rel=1e-7)


def test_nan_propagates_and_inf_wins() -> None:
    got = _y(18, [1, math.nan, -math.inf, 3, math.inf, math.nan], {"kernel_shape": [2]})
    assert math.isnan(got[0]) and math.isnan(got[1]) and got[2] == math.inf and got[3] == math.inf
    assert math.isnan(got[4])


def test_norm_where_the_powers_overflow_or_underflow() -> None:
    # the reference is the norm, not a float32 evaluation of sum |x|^p (docs/spec-notes.md, large p)
    assert _y(18, [1e20, 1e20], {"kernel_shape": [2]}) == pytest.approx([2 ** 0.5 * 1e20], rel=1e-7)
    assert _y(18, [1e-30, 1e-30], {"kernel_shape": [2]}) == pytest.approx([2 ** 0.5 * 1e-30], rel=1e-6)
    assert _y(18, [20, -19], {"kernel_shape": [2], "p": 40}) == pytest.approx([20.0 * (1 + 0.95 ** 40) ** (1 / 40)],
                                                                              rel=1e-7)
    big = _y(18, [1e300, 1e300], {"kernel_shape": [2], "p": 50}, dtype=np.float64)
    assert big == pytest.approx([2 ** (1 / 50) * 1e300], rel=1e-15)


def test_float64_is_rounded_once_from_a_wider_norm() -> None:
    # float64 inputs are computed in long double: the result is the correctly rounded norm nearly always (a float64
    # evaluation is off by an ulp or two in a good share of windows; the property tests allow 1 ulp)
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((1, 400, 6)) * 3).astype(np.float64)
    got = reference.evaluate("ai.onnx", "GlobalLpPool", 22, [x], {"p": 3}).outputs[0]
    want = naive.global_lppool(x, 3.0)
    assert (got == want).mean() >= 0.98
    assert_close(got, want)


def test_global_lppool_values() -> None:
    x = np.array([3, -4, 5, 12, 0, -0.0], dtype=np.float32).reshape(3, 1, 2)
    res = reference.evaluate("ai.onnx", "GlobalLpPool", 2, [x], {})
    assert res.outputs[0].shape == (3, 1, 1) and res.outputs[0].ravel().tolist() == [5, 13, 0]
    assert reference.evaluate("ai.onnx", "GlobalLpPool", 1, [x], {"p": 1.0}).outputs[0].ravel().tolist() == [7, 17, 0]
    x3 = np.ones((1, 2, 2, 2, 2), np.float64)
    assert reference.output_shapes("ai.onnx", "GlobalLpPool", 22, [x3.shape], {"p": 3}) == [(1, 2, 1, 1, 1)]
    assert reference.window_elements("ai.onnx", "GlobalLpPool", 22, [x3.shape], {}) == 8
    assert_close(reference.evaluate("ai.onnx", "GlobalLpPool", 22, [x3], {"p": 3}).outputs[0],
                 np.full((1, 2, 1, 1, 1), 2.0, np.float64))


def test_window_elements_counts_input_taps_only() -> None:
    assert reference.window_elements("ai.onnx", "LpPool", 18, [(1, 1, 4)], {"kernel_shape": [3], "pads": [2, 2]}) == 3
    assert reference.window_elements("ai.onnx", "LpPool", 18, [(1, 1, 2)], {"kernel_shape": [3], "pads": [2, 2]}) == 2


# ---------------------------------------------------------------------------------------------------------------
# one test per SpecViolation rule, and version gating

X4 = np.zeros((1, 1, 6, 6), np.float32)
BAD = {
    "missing kernel_shape": {"strides": [1, 1]},
    "kernel 0": {"kernel_shape": [0, 2]},
    "stride 0": {"kernel_shape": [2, 2], "strides": [0, 1]},
    "dilation 0": {"kernel_shape": [2, 2], "dilations": [1, 0]},
    "negative pad": {"kernel_shape": [2, 2], "pads": [0, 0, -1, 0]},
    "pads with SAME_UPPER": {"kernel_shape": [2, 2], "auto_pad": "SAME_UPPER", "pads": [0, 0, 0, 0]},
    "ceil_mode 2": {"kernel_shape": [2, 2], "ceil_mode": 2},
    "auto_pad unknown": {"kernel_shape": [2, 2], "auto_pad": "SAME"},
    "kernel length": {"kernel_shape": [2]},
    "empty output": {"kernel_shape": [7, 2]},
    "p 0": {"kernel_shape": [2, 2], "p": 0},
    "p negative": {"kernel_shape": [2, 2], "p": -2},
    "p float": {"kernel_shape": [2, 2], "p": 2.0},
    "p bool": {"kernel_shape": [2, 2], "p": True},
    "unknown attribute": {"kernel_shape": [2, 2], "storage_order": 0},
}


@pytest.mark.parametrize("attrs", BAD.values(), ids=BAD.keys())
def test_spec_violation(attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "LpPool", 22, [X4], attrs)
    with pytest.raises(reference.SpecViolation):
        reference.output_shapes("ai.onnx", "LpPool", 22, [X4.shape], attrs)


@pytest.mark.parametrize("p", [2, 0.0, -1.0, math.inf, math.nan, "2"])
def test_p_at_version_1_is_a_positive_float(p) -> None:
    with pytest.raises(reference.SpecViolation, match="p"):
        reference.evaluate("ai.onnx", "LpPool", 1, [X4], {"kernel_shape": [2, 2], "p": p})
    with pytest.raises(reference.SpecViolation, match="p"):
        reference.evaluate("ai.onnx", "GlobalLpPool", 1, [X4], {"p": p})


@pytest.mark.parametrize("p", [2.0, 0, -3, True])
def test_p_from_version_2_is_a_positive_int(p) -> None:
    for version in (2, 22):
        with pytest.raises(reference.SpecViolation, match="p"):
            reference.evaluate("ai.onnx", "GlobalLpPool", version, [X4], {"p": p})


@pytest.mark.parametrize("attr, value", [("ceil_mode", 0), ("dilations", [1])])
def test_attribute_defined_from_18(attr: str, value) -> None:
    x = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 6)
    for version in VERSIONS:
        attrs = {"kernel_shape": [2], attr: value}
        if version < 18:
            with pytest.raises(reference.SpecViolation, match="not defined by this version"):
                reference.evaluate("ai.onnx", "LpPool", version, [x], attrs)
        else:
            reference.evaluate("ai.onnx", "LpPool", version, [x], attrs)


@pytest.mark.parametrize("op, attrs", [("LpPool", {"kernel_shape": [2]}), ("GlobalLpPool", {})])
def test_rank_dtype_and_input_count(op: str, attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation, match="rank"):
        reference.evaluate("ai.onnx", op, 22, [np.zeros((1, 6), np.float32)], attrs)
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", op, 22, [np.zeros((1, 1, 6), np.int32)], attrs)
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", op, 18 if op == "LpPool" else 2, [np.zeros((1, 1, 6), BF16)], attrs)
    x = np.zeros((1, 1, 4), np.float32)
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", op, 22, [x, x], attrs)
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "GlobalLpPool", 22, [x], {"kernel_shape": [2]})
