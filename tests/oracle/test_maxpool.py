"""ONNX MaxPool reference (reference/onnx_maxpool.py): property tests against the naive loop oracle
(tests/oracle/naive_maxpool.py), one test per SpecViolation rule, version gating, the documented choices
(docs/spec-notes.md, "MaxPool (ONNX)") and mutation checks showing that a formula change would be caught."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from maxpool_check import BF16, _run, check

import conformance_reference as reference
from conformance_reference import onnx_maxpool

SETTINGS = settings(
    derandomize=True, max_examples=200, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
VERSIONS = (1, 8, 10, 11, 12, 22)
NAN, INF = math.nan, math.inf

# ---------------------------------------------------------------------------------------------------------------
# property tests


@st.composite
def maxpool_cases(draw: st.DrawFn, version: int) -> tuple[np.ndarray, dict]:
    rank = draw(st.integers(1, 3))
    size_hi, kernel_hi, pad_hi = {1: (8, 4, 4), 2: (6, 3, 3), 3: (4, 3, 2)}[rank]
    ints = lambda lo, hi: st.lists(st.integers(lo, hi), min_size=rank, max_size=rank)  # noqa: E731
    sizes = draw(ints(1, size_hi))
    attrs: dict = {"kernel_shape": draw(ints(1, kernel_hi))}
    if draw(st.booleans()):
        attrs["strides"] = draw(ints(1, 3))
    auto = draw(st.sampled_from(["NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"]))
    if auto != "NOTSET" or draw(st.booleans()):
        attrs["auto_pad"] = auto
    if auto == "NOTSET" and draw(st.booleans()):
        attrs["pads"] = draw(ints(0, pad_hi)) + draw(ints(0, pad_hi))
    if version >= 8 and draw(st.booleans()):
        attrs["storage_order"] = draw(st.integers(0, 1))
    if version >= 10 and draw(st.booleans()):
        attrs["ceil_mode"] = draw(st.integers(0, 1))
    if version >= 10 and draw(st.booleans()):
        attrs["dilations"] = draw(ints(1, 2))
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    shape = (n, c, *sizes)
    dtype = _dtype(draw(st.sampled_from(onnx_maxpool.SCHEMA.supported_dtypes(version))))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["ties", "wide", "specials"]))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = (info.min, info.max) if kind == "wide" else (0, 3)
        x = rng.integers(lo, int(hi) + 1, size=shape).astype(dtype)
    else:
        data = rng.integers(-3, 4, size=shape).astype(np.float64) if kind == "ties" else rng.standard_normal(shape)
        if kind == "specials":
            specials = np.array([NAN, INF, -INF, 0.0, -0.0])
            pick = rng.random(shape) < 0.3
            data[pick] = rng.choice(specials, size=int(pick.sum()))
        x = data.astype(dtype)
    return x, attrs


def _dtype(name: str) -> np.dtype:
    return BF16 if name == "bfloat16" else np.dtype(name)


@pytest.mark.parametrize("version", VERSIONS)
@SETTINGS
@given(data=st.data())
def test_against_naive_oracle(version: int, data: st.DataObject) -> None:
    x, attrs = data.draw(maxpool_cases(version))
    event(f"rank {x.ndim - 2}, {x.dtype}, auto_pad {attrs.get('auto_pad', 'NOTSET')}")
    event(f"storage_order {attrs.get('storage_order', 0)}, ceil_mode {attrs.get('ceil_mode', 0)}")
    event(check(version, x, attrs))


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32", "float64", "int8", "uint8"])
def test_every_dtype_of_every_version(version: int, dtype: str) -> None:
    x = (np.arange(2 * 3 * 5 * 4) * 7 % 11).reshape(2, 3, 5, 4).astype(_dtype(dtype))
    attrs: dict = {"kernel_shape": [2, 3], "pads": [1, 0, 1, 2], "strides": [2, 1]}
    if version >= 8:
        attrs["storage_order"] = 1
    if dtype not in onnx_maxpool.SCHEMA.supported_dtypes(version):
        with pytest.raises(reference.SpecViolation, match="type constraint"):
            _run(version, x, attrs)
        return
    check(version, x, attrs)


def test_supported_dtypes_per_version() -> None:
    floats = {"float16", "float32", "float64"}
    for v in (1, 8, 10, 11):
        assert set(reference.supported_dtypes("ai.onnx", "MaxPool", v)) == floats
    assert set(reference.supported_dtypes("ai.onnx", "MaxPool", 12)) == floats | {"int8", "uint8"}
    assert set(reference.supported_dtypes("ai.onnx", "MaxPool", 21)) == floats | {"int8", "uint8"}
    assert set(reference.supported_dtypes("ai.onnx", "MaxPool", 22)) == floats | {"int8", "uint8", "bfloat16"}


@pytest.mark.parametrize("opset, since", [(1, 1), (7, 1), (8, 8), (9, 8), (10, 10), (11, 11), (12, 12), (21, 12),
                                          (22, 22), (28, 22)])
def test_resolve(opset: int, since: int) -> None:
    assert reference.resolve("ai.onnx", "MaxPool", opset) == since
    assert reference.resolve("", "MaxPool", opset) == since


# ---------------------------------------------------------------------------------------------------------------
# one test per SpecViolation rule

X4 = np.zeros((1, 1, 6, 6), np.float32)
BAD = {
    "missing kernel_shape": {"strides": [1, 1]},
    "kernel 0": {"kernel_shape": [0, 2]},
    "stride 0": {"kernel_shape": [2, 2], "strides": [0, 1]},
    "dilation 0": {"kernel_shape": [2, 2], "dilations": [1, 0]},
    "negative pad": {"kernel_shape": [2, 2], "pads": [0, 0, -1, 0]},
    "pads with SAME_UPPER": {"kernel_shape": [2, 2], "auto_pad": "SAME_UPPER", "pads": [0, 0, 0, 0]},
    "pads with VALID": {"kernel_shape": [2, 2], "auto_pad": "VALID", "pads": [0, 0, 0, 0]},
    "storage_order 2": {"kernel_shape": [2, 2], "storage_order": 2},
    "storage_order bool": {"kernel_shape": [2, 2], "storage_order": True},
    "ceil_mode 2": {"kernel_shape": [2, 2], "ceil_mode": 2},
    "auto_pad unknown": {"kernel_shape": [2, 2], "auto_pad": "SAME"},
    "auto_pad lowercase": {"kernel_shape": [2, 2], "auto_pad": "valid"},
    "kernel length": {"kernel_shape": [2]},
    "strides length": {"kernel_shape": [2, 2], "strides": [1, 1, 1]},
    "dilations length": {"kernel_shape": [2, 2], "dilations": [1]},
    "pads length": {"kernel_shape": [2, 2], "pads": [0, 0]},
    "kernel not ints": {"kernel_shape": [2.0, 2]},
    "empty output": {"kernel_shape": [7, 2]},
    "empty output VALID": {"kernel_shape": [2, 7], "auto_pad": "VALID"},
    "empty output dilated": {"kernel_shape": [3, 2], "dilations": [3, 1]},
    "unknown attribute": {"kernel_shape": [2, 2], "count_include_pad": 0},
}


@pytest.mark.parametrize("attrs", BAD.values(), ids=BAD.keys())
def test_spec_violation(attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation):
        _run(22, X4, attrs)
    with pytest.raises(reference.SpecViolation):
        reference.output_shapes("ai.onnx", "MaxPool", 22, [X4.shape], attrs)
    with pytest.raises(reference.SpecViolation):
        reference.window_indices("ai.onnx", "MaxPool", 22, X4.shape, attrs)


@pytest.mark.parametrize("x", [np.zeros((1, 6), np.float32), np.zeros((6,), np.float32)])
def test_rank_below_3(x: np.ndarray) -> None:
    with pytest.raises(reference.SpecViolation, match="rank"):
        _run(12, x, {"kernel_shape": [2]})


@pytest.mark.parametrize("version, dtype", [(11, np.int8), (11, np.uint8), (12, BF16), (22, np.int32),
                                            (22, np.bool_), (1, np.int8)])
def test_dtype_outside_the_type_constraint(version: int, dtype) -> None:
    with pytest.raises(reference.SpecViolation, match="type constraint"):
        _run(version, np.zeros((1, 1, 4), dtype), {"kernel_shape": [2]})


def test_wrong_input_count() -> None:
    x = np.zeros((1, 1, 4), np.float32)
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "MaxPool", 12, [x, x], {"kernel_shape": [2]})
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "MaxPool", 12, [x.tolist()], {"kernel_shape": [2]})


# ---------------------------------------------------------------------------------------------------------------
# version gating

X3 = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 6)


@pytest.mark.parametrize("attr, value, first", [("storage_order", 0, 8), ("ceil_mode", 0, 10),
                                                ("dilations", [1], 10)])
def test_attribute_defined_from(attr: str, value, first: int) -> None:
    for version in VERSIONS:
        if version < first:
            with pytest.raises(reference.SpecViolation, match="not defined by this version"):
                _run(version, X3, {"kernel_shape": [2], attr: value})
        else:
            _run(version, X3, {"kernel_shape": [2], attr: value})


def test_dilations_rejected_at_8_accepted_at_10() -> None:
    attrs = {"kernel_shape": [2], "dilations": [2]}
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "MaxPool", 9, [X3], attrs)  # opset 9 -> MaxPool-8
    assert _run(10, X3, attrs).outputs[0].ravel().tolist() == [3, 4, 5, 6]


def test_indices_output_from_8() -> None:
    attrs = {"kernel_shape": [2], "strides": [2]}
    assert len(_run(7, X3, attrs).outputs) == 1
    assert reference.output_shapes("ai.onnx", "MaxPool", 7, [X3.shape], attrs) == [(1, 1, 3)]
    res = _run(8, X3, attrs)
    assert [o.ravel().tolist() for o in res.outputs] == [[2, 4, 6], [1, 3, 5]]
    assert reference.output_shapes("ai.onnx", "MaxPool", 8, [X3.shape], attrs) == [(1, 1, 3), (1, 1, 3)]


# ---------------------------------------------------------------------------------------------------------------
# the documented choices (docs/spec-notes.md, "MaxPool (ONNX)")


def values(res: reference.Result, k: int = 0) -> list:
    out = res.outputs[k].astype(np.float64) if k == 0 else res.outputs[k]
    return out.ravel().tolist()


def masked(res: reference.Result) -> list[bool]:
    m = res.unspecified[0]
    return [False] * res.outputs[0].size if m is None else m.ravel().tolist()


CEIL_IN_RIGHT_PAD = {"kernel_shape": [2], "strides": [2], "pads": [0, 1], "ceil_mode": 1}


@pytest.mark.parametrize("version, n_out", [(10, 3), (11, 3), (12, 3), (22, 2)])
def test_opset_22_last_window_rule_only_from_22(version: int, n_out: int) -> None:
    x = np.arange(1, 5, dtype=np.float32).reshape(1, 1, 4)
    res = _run(version, x, CEIL_IN_RIGHT_PAD)
    assert values(res)[:2] == [2, 4] and values(res, 1)[:2] == [1, 3] and len(values(res)) == n_out
    if n_out == 3:  # the third window holds only padding and overhang: unspecified
        assert masked(res) == [False, False, True] and values(res, 1)[2] == -1


def test_pads_at_least_kernel_allowed_windows_in_padding_unspecified() -> None:
    x = np.array([1, 2], np.float32).reshape(1, 1, 2)
    res = _run(12, x, {"kernel_shape": [2], "pads": [0, 3]})
    assert masked(res) == [False, False, True, True]
    assert values(res)[:2] == [2, 2] and values(res, 1) == [1, 1, -1, -1]
    res = _run(12, x, {"kernel_shape": [2], "pads": [3, 0]})
    assert masked(res) == [True, True, False, False] and values(res, 1) == [-1, -1, 0, 1]
    # opset 22 + ceil: one window dropped, like onnx shape inference (4 -> 3)
    attrs = {"kernel_shape": [2], "pads": [0, 3], "ceil_mode": 1}
    assert reference.output_shapes("ai.onnx", "MaxPool", 22, [x.shape], attrs)[0] == (1, 1, 3)


def test_padding_never_wins() -> None:
    x = np.array([-5, -7, -9], np.float32).reshape(1, 1, 3)  # a zero pad would win against negatives
    res = _run(12, x, {"kernel_shape": [3], "pads": [2, 2]})
    assert values(res) == [-5, -5, -5, -7, -9] and values(res, 1) == [0, 0, 0, 1, 2]
    xi = np.array([0, 0, 0], np.uint8).reshape(1, 1, 3)
    assert values(_run(12, xi, {"kernel_shape": [2], "pads": [1, 1]}), 1) == [0, 0, 1, 2]


@pytest.mark.parametrize("window, masked_", [([NAN, 1, 2], True), ([1, NAN, 2], True), ([1, 2, NAN], True),
                                             ([NAN, NAN, NAN], True), ([1, 2, 0], False)])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, BF16])
def test_nan_in_a_window_is_unspecified(window: list, masked_: bool, dtype) -> None:
    x = np.array(window + [3, 4, 5], dtype).reshape(1, 1, 6)
    res = _run(22, x, {"kernel_shape": [3], "strides": [3]})
    assert masked(res) == [masked_, False]
    assert values(res)[1] == 5 and values(res, 1)[1] == 5
    if masked_:
        assert math.isnan(values(res)[0]) and values(res, 1)[0] == -1


def test_infinities_are_ordinary_values() -> None:
    x = np.array([1, INF, 2, -INF, -INF, -INF], np.float32).reshape(1, 1, 6)
    res = _run(12, x, {"kernel_shape": [3], "strides": [3]})
    assert values(res) == [INF, -INF] and values(res, 1) == [1, 3] and res.unspecified == [None, None]


@pytest.mark.parametrize("window, sign, index", [([-0.0, 0.0, -1], True, 0), ([0.0, -0.0, -1], False, 0),
                                                 ([-1, -0.0, 0.0], True, 1), ([2, 1, 2], False, 0)])
def test_ties_first_in_tap_order(window: list, sign: bool, index: int) -> None:
    x = np.array(window, np.float32).reshape(1, 1, 3)
    res = _run(12, x, {"kernel_shape": [3]})
    assert bool(np.signbit(res.outputs[0].ravel()[0])) == sign and values(res, 1) == [index]


def test_ties_in_2d_scan_row_major_kernel_order() -> None:
    x = np.array([[0, 5], [5, 5]], np.float32).reshape(1, 1, 2, 2)
    for order in (0, 1):
        res = _run(12, x, {"kernel_shape": [2, 2], "storage_order": order})
        # taps (0,0) (0,1) (1,0) (1,1): the first 5 is (0,1) -> row-major 1, column-major 0 + 1*2 = 2
        assert values(res, 1) == [1 if order == 0 else 2]


def test_storage_order_1d_has_no_effect() -> None:
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.float32).reshape(2, 2, 2)
    a = _run(12, x, {"kernel_shape": [1], "storage_order": 0})
    b = _run(12, x, {"kernel_shape": [1], "storage_order": 1})
    assert values(a, 1) == values(b, 1) == list(range(8))


def test_storage_order_2d_spatial_column_major_n_c_outermost() -> None:
    # N=2, C=1, H=2, W=3; kernel 1: every element is its own max.  Indices give its flat position.
    x = np.arange(12, dtype=np.float32).reshape(2, 1, 2, 3)
    res = _run(12, x, {"kernel_shape": [1, 1], "storage_order": 1})
    # (n, h, w) -> n*6 + h + w*2
    assert res.outputs[1].tolist() == [[[[0, 2, 4], [1, 3, 5]]], [[[6, 8, 10], [7, 9, 11]]]]
    res = _run(12, x, {"kernel_shape": [1, 1], "storage_order": 0})
    assert res.outputs[1].ravel().tolist() == list(range(12))


def test_storage_order_3d() -> None:
    x = np.arange(2 * 2 * 3 * 4, dtype=np.float32).reshape(1, 2, 2, 3, 4)
    ind = _run(12, x, {"kernel_shape": [1, 1, 1], "storage_order": 1}).outputs[1]
    d, h, w = np.meshgrid(np.arange(2), np.arange(3), np.arange(4), indexing="ij")
    for c in range(2):
        np.testing.assert_array_equal(ind[0, c], c * 24 + d + 2 * h + 6 * w)


def test_onnx_node_test_storage_order_example() -> None:
    # test_maxpool_with_argmax_2d_precomputed_strides
    x = np.arange(1, 26, dtype=np.float32).reshape(1, 1, 5, 5)
    res = _run(12, x, {"kernel_shape": [2, 2], "strides": [2, 2], "storage_order": 1})
    assert res.outputs[0].tolist() == [[[[7, 9], [17, 19]]]] and res.outputs[1].tolist() == [[[[6, 16], [8, 18]]]]


def test_valid_honours_ceil_mode() -> None:
    x = np.arange(1, 6, dtype=np.float32).reshape(1, 1, 5)
    assert values(_run(12, x, {"kernel_shape": [2], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1})) == [2, 4, 5]
    assert values(_run(12, x, {"kernel_shape": [2], "strides": [2], "auto_pad": "VALID"})) == [2, 4]


def test_same_with_dilations() -> None:
    x = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 6)
    res = _run(12, x, {"kernel_shape": [2], "dilations": [2], "auto_pad": "SAME_UPPER"})
    assert values(res) == [2, 3, 4, 5, 6, 5]


def test_int8_extremes_and_values_exact() -> None:
    x = np.array([-128, -128, 127, -1], np.int8).reshape(1, 1, 4)
    res = _run(12, x, {"kernel_shape": [2]})
    assert res.outputs[0].dtype == np.int8 and values(res) == [-128, 127, 127] and values(res, 1) == [0, 2, 2]
    x = np.array([1 + 2**-10, 1, 65504], np.float16).reshape(1, 1, 3)  # no rounding anywhere
    assert _run(12, x, {"kernel_shape": [1]}).outputs[0].tobytes() == x.tobytes()


def test_window_indices_api() -> None:
    taps = reference.window_indices("ai.onnx", "MaxPool", 12, (1, 1, 4), CEIL_IN_RIGHT_PAD)
    assert taps.dtype == np.int64 and taps.tolist() == [[[[0, 1], [2, 3], [-1, -1]]]]
    taps = reference.window_indices("ai.onnx", "MaxPool", 12, (1, 1, 2, 2), {"kernel_shape": [2, 2],
                                                                              "storage_order": 1})
    assert taps.tolist() == [[[[[0, 2, 1, 3]]]]]
    with pytest.raises(reference.UnknownOp):
        reference.window_indices("ai.onnx", "AveragePool", 22, (1, 1, 4), {"kernel_shape": [2]})
    with pytest.raises(reference.UnknownOp):
        reference.window_indices("ai.onnx", "LpPool", 22, (1, 1, 4), {"kernel_shape": [2]})


def test_empty_batch_and_zero_size_spatial_axis() -> None:
    res = _run(12, np.zeros((0, 2, 4), np.float32), {"kernel_shape": [2]})
    assert res.outputs[0].shape == res.outputs[1].shape == (0, 2, 3)
    res = _run(12, np.zeros((1, 1, 0), np.float32), {"kernel_shape": [1], "pads": [1, 0]})
    assert res.outputs[0].shape == (1, 1, 1) and masked(res) == [True] and values(res, 1) == [-1]
