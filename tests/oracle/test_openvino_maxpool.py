"""OpenVINO MaxPool-1/8/14 and AdaptiveMaxPool-8 references (reference/openvino_maxpool.py,
openvino_adaptive_maxpool.py): property tests against the naive loop oracle, every published example, the
documented choices (docs/spec-notes.md, "OpenVINO MaxPool") and the SpecViolation rules."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from openvino_maxpool_check import BF16, check, check_adaptive

import conformance_reference as reference

SETTINGS = settings(
    derandomize=True, max_examples=150, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
NAN, INF = math.nan, math.inf
DTYPES = ("float16", "float32", "float64", "bfloat16", "int8", "uint8", "int32", "int64")


def _dtype(name: str) -> np.dtype:
    return BF16 if name == "bfloat16" else np.dtype(name)


def _values(draw: st.DrawFn, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["ties", "wide", "specials"]))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = (int(info.min), int(info.max)) if kind == "wide" else (0, 3)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
    data = rng.integers(-3, 4, size=shape).astype(np.float64) if kind == "ties" else rng.standard_normal(shape)
    if kind == "specials":
        pick = rng.random(shape) < 0.3
        data[pick] = rng.choice(np.array([NAN, INF, -INF, 0.0, -0.0]), size=int(pick.sum()))
    return data.astype(dtype)


@st.composite
def maxpool_cases(draw: st.DrawFn, version: int) -> tuple[np.ndarray, dict]:
    rank = draw(st.integers(1, 3))
    size_hi, kernel_hi, pad_hi = {1: (8, 4, 4), 2: (6, 3, 3), 3: (4, 3, 2)}[rank]
    ints = lambda lo, hi: st.lists(st.integers(lo, hi), min_size=rank, max_size=rank)  # noqa: E731
    sizes = draw(ints(1, size_hi))
    attrs: dict = {"kernel": draw(ints(1, kernel_hi)), "strides": draw(ints(1, 3)),
                   "pads_begin": draw(ints(0, pad_hi)), "pads_end": draw(ints(0, pad_hi))}
    auto = draw(st.sampled_from(["explicit", "explicit", "same_upper", "same_lower", "valid"]))
    if auto != "explicit" or draw(st.booleans()):
        attrs["auto_pad"] = auto
    roundings = ["floor", "ceil", "ceil_torch"] if version >= 14 else ["floor", "ceil"]
    if draw(st.booleans()):
        attrs["rounding_type"] = draw(st.sampled_from(roundings))
    if version >= 8:
        if draw(st.booleans()):
            attrs["dilations"] = draw(ints(1, 2))
        if draw(st.booleans()):
            attrs["axis"] = draw(st.integers(-(rank + 2), rank + 1))
        if draw(st.booleans()):
            attrs["index_element_type"] = draw(st.sampled_from(["i32", "i64"]))
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 3)), *sizes)
    return _values(draw, shape, _dtype(draw(st.sampled_from(DTYPES)))), attrs


@pytest.mark.parametrize("version", (1, 8, 14))
@SETTINGS
@given(data=st.data())
def test_maxpool_against_naive_oracle(version: int, data: st.DataObject) -> None:
    x, attrs = data.draw(maxpool_cases(version))
    event(f"rank {x.ndim - 2}, {x.dtype}, auto_pad {attrs.get('auto_pad', 'explicit')}")
    event(f"rounding {attrs.get('rounding_type', 'floor')}, axis {attrs.get('axis', 0)}")
    event(check(version, x, attrs))


@SETTINGS
@given(data=st.data())
def test_adaptive_against_naive_oracle(data: st.DataObject) -> None:
    rank = data.draw(st.integers(1, 3))
    sizes = data.draw(st.lists(st.integers(1, 7), min_size=rank, max_size=rank))
    out = data.draw(st.lists(st.integers(1, 7), min_size=rank, max_size=rank))
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3)), *sizes)
    x = _values(data.draw, shape, _dtype(data.draw(st.sampled_from(DTYPES[:4]))))
    attrs = {"index_element_type": data.draw(st.sampled_from(["i32", "i64"]))} if data.draw(st.booleans()) else {}
    size = np.array(out, dtype=data.draw(st.sampled_from([np.int32, np.int64])))
    event(f"rank {rank}, {x.dtype}")
    event(check_adaptive(x, size, attrs))


# ---------------------------------------------------------------------------------------------------------------
# published examples (MaxPool-1/-8 texts and the shape-rules page), with the corrected values where they are
# errata: example 1's output[1][3] is 3 (index 2), not -6 (index 5)

EXAMPLE = np.array([[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]]]], np.float32)
NINE = np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)
PUBLISHED = [
    ("1 explicit", EXAMPLE, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "kernel": [2, 2]},
     [[-1, 2, 3, 3], [4, 5, 5, 3], [4, 8, 9, 9], [-7, 8, 9, 9]],
     [[0, 1, 2, 2], [3, 4, 4, 2], [3, 7, 8, 8], [6, 7, 8, 8]]),
    ("2 valid", np.array([[[-1, 2, 3, 5, -7, 9, 1]]], np.float32),
     {"strides": [1], "kernel": [3], "auto_pad": "valid", "pads_begin": [0], "pads_end": [0]},
     [3, 5, 5, 9, 9], [2, 3, 3, 5, 5]),
    ("3 same_lower", EXAMPLE, {"strides": [1, 1], "kernel": [2, 2], "auto_pad": "same_lower", "pads_begin": [0, 0],
                               "pads_end": [0, 0]},
     [[-1, 2, 3], [4, 5, 5], [4, 8, 9]], [[0, 1, 2], [3, 4, 4], [3, 7, 8]]),
    ("5 valid ceil", EXAMPLE, {"strides": [2, 2], "kernel": [2, 2], "rounding_type": "ceil", "auto_pad": "valid",
                               "pads_begin": [0, 0], "pads_end": [0, 0]},
     [[5, 3], [8, 9]], [[4, 2], [7, 8]]),
    ("6 dilated", NINE, {"strides": [1, 1], "kernel": [2, 2], "dilations": [2, 2], "pads_begin": [1, 1],
                         "pads_end": [1, 1]},
     [[5, 6, 5], [8, 9, 8], [5, 6, 5]], [[4, 5, 4], [7, 8, 7], [4, 5, 4]]),
    ("rules 5 ceil_torch", NINE, {"strides": [2, 2], "kernel": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1],
                                  "rounding_type": "ceil_torch"},
     [[1, 3], [7, 9]], [[0, 2], [6, 8]]),
]


@pytest.mark.parametrize("name, x, attrs, values, indices", PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_published_examples(name: str, x: np.ndarray, attrs: dict, values: list, indices: list) -> None:
    version = 14 if "ceil_torch" in name else 8
    out = reference.evaluate("openvino", "MaxPool", version, [x], attrs).outputs
    np.testing.assert_array_equal(out[0].reshape(np.shape(values)), values)
    np.testing.assert_array_equal(out[1].reshape(np.shape(indices)), indices)
    if "dilations" not in attrs and version == 8:  # MaxPool-1: the same values, one output
        assert len(one := reference.evaluate("openvino", "MaxPool", 1, [x], attrs).outputs) == 1
        np.testing.assert_array_equal(one[0], out[0])


def test_published_example_4_two_channels() -> None:
    x = np.concatenate([EXAMPLE, np.array([[[[2, -1, 5], [6, -7, 1], [8, 2, -3]]]], np.float32)], axis=1)
    attrs = {"strides": [1, 1], "kernel": [2, 2], "auto_pad": "same_upper", "pads_begin": [0, 0], "pads_end": [0, 0]}
    y, i = reference.evaluate("openvino", "MaxPool", 8, [x], attrs).outputs
    np.testing.assert_array_equal(y[0], [[[5, 5, 3], [8, 9, 9], [8, 9, 9]], [[6, 5, 5], [8, 2, 1], [8, 2, -3]]])
    np.testing.assert_array_equal(i[0], [[[4, 4, 2], [7, 8, 8], [7, 8, 8]], [[12, 11, 11], [15, 16, 14], [15, 16, 17]]])


def test_published_example_7_axis_2() -> None:
    x = np.arange(1, 19, dtype=np.float32).reshape(1, 2, 3, 3)
    attrs = {"strides": [1, 1], "kernel": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0], "axis": 2}
    y, i = reference.evaluate("openvino", "MaxPool", 8, [x], attrs).outputs
    np.testing.assert_array_equal(y[0], [[[5, 6], [8, 9]], [[14, 15], [17, 18]]])
    np.testing.assert_array_equal(i[0], [[[4, 5], [7, 8]], [[4, 5], [7, 8]]])


@pytest.mark.parametrize("auto_pad, kernel, pads, dims", [
    ("same_upper", [2, 2], [1, 1], [16, 16]),  # the examples claim 32x32 (erratum)
    ("explicit", [2, 2], [1, 1], [17, 17]),
    ("valid", [2, 2], [1, 1], [16, 16]),
])
def test_xml_example_shapes(auto_pad: str, kernel: list, pads: list, dims: list) -> None:
    attrs = {"auto_pad": auto_pad, "kernel": kernel, "pads_begin": pads, "pads_end": pads, "strides": [2, 2]}
    for version in (1, 8, 14):
        shapes = reference.output_shapes("openvino", "MaxPool", version, [(1, 3, 32, 32)], attrs)
        assert shapes == [(1, 3, *dims)] * (1 if version == 1 else 2)
    size = {1: np.array([16, 16], np.int64)}
    assert reference.output_shapes("openvino", "AdaptiveMaxPool", 8, [(1, 3, 32, 32), (2,)], {}, size) == \
        [(1, 3, 16, 16)] * 2


# ---------------------------------------------------------------------------------------------------------------
# choices


def _run(x: np.ndarray, attrs: dict, version: int = 8) -> reference.Result:
    return reference.evaluate("openvino", "MaxPool", version, [x], attrs)


def _attrs(**extra) -> dict:
    return {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], **extra}


def test_window_in_padding_is_minus_inf_with_unspecified_index() -> None:
    res = _run(np.array([[[1, 2]]], np.float32), _attrs(pads_end=[3]))
    np.testing.assert_array_equal(res.outputs[0], [[[2, 2, -INF, -INF]]])
    assert res.unspecified[0] is None
    np.testing.assert_array_equal(res.unspecified[1], [[[False, False, True, True]]])


def test_window_in_padding_int_is_unspecified() -> None:
    res = _run(np.array([[[4, -5, 6]]], np.int8), _attrs(pads_begin=[2]))
    np.testing.assert_array_equal(res.unspecified[0], [[[True, False, False, False]]])


def test_nan_window_unspecified_and_ties_first_tap() -> None:
    res = _run(np.array([[[1, NAN, 2, 5, 5]]], np.float32), _attrs())
    np.testing.assert_array_equal(res.unspecified[0], [[[True, True, False, False]]])
    assert res.outputs[1][0, 0, 3] == 3  # 5 at 3 and 4: the first tap


@pytest.mark.parametrize("axis, expected", [(0, 29), (1, 13), (2, 5), (3, 1), (-1, 1), (-2, 5), (-3, 13), (-4, 29)])
def test_axis_flattening(axis: int, expected: int) -> None:
    """One window per (n, c) plane of a [2, 2, 2, 4] input; the last plane's maximum sits at (1, 1, 1, 1), flat
    index (1*2 + 1)*8 + 1*4 + 1 = 29, taken modulo the product of the dimensions from ``axis`` on."""
    x = np.zeros((2, 2, 2, 4), np.float32)
    x[1, 1, 1, 1] = 9
    attrs = {"kernel": [2, 4], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "axis": axis}
    assert _run(x, attrs).outputs[1][1, 1, 0, 0] == expected


def test_index_element_type_is_the_dtype() -> None:
    x = np.arange(8, dtype=np.float32).reshape(1, 1, 8)
    assert _run(x, _attrs(index_element_type="i32")).outputs[1].dtype == np.int32
    assert _run(x, _attrs()).outputs[1].dtype == np.int64
    y = reference.evaluate("openvino", "AdaptiveMaxPool", 8, [x, np.array([3])], {"index_element_type": "i32"})
    assert y.outputs[1].dtype == np.int32


def test_adaptive_windows() -> None:
    x = np.array([[[1, 5, 2, 4, 3]]], np.float32)
    y, i = reference.evaluate("openvino", "AdaptiveMaxPool", 8, [x, np.array([3], np.int32)], {}).outputs
    np.testing.assert_array_equal(y, [[[5, 5, 4]]])  # [0, 2), [1, 4), [3, 5)
    np.testing.assert_array_equal(i, [[[1, 1, 3]]])
    x2 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    i2 = reference.evaluate("openvino", "AdaptiveMaxPool", 8, [x2, np.array([2])], {}).outputs[1]
    assert i2.max() < 4  # spatial flattening: [0, H) in every (n, c) plane


# ---------------------------------------------------------------------------------------------------------------
# SpecViolation


@pytest.mark.parametrize("version, attrs", [
    (1, _attrs(dilations=[1])), (1, _attrs(axis=0)), (1, _attrs(index_element_type="i64")),
    (8, _attrs(rounding_type="ceil_torch")), (8, _attrs(axis=3)), (8, _attrs(axis=-4)), (8, _attrs(axis=True)),
    (8, _attrs(index_element_type="u32")), (8, _attrs(dilations=[0])), (14, _attrs(auto_pad="SAME_UPPER")),
    (14, _attrs(rounding_type="round")), (14, {"kernel": [2], "strides": [1], "pads_begin": [0]}),
    (14, _attrs(kernel=[0])), (14, _attrs(strides=[0])), (14, _attrs(pads_end=[-1])), (14, _attrs(kernel=[9])),
    (14, {**_attrs(), "exclude-pad": True}),
])
def test_spec_violations(version: int, attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation):
        _run(np.zeros((1, 1, 4), np.float32), attrs, version)


@pytest.mark.parametrize("inputs, attrs", [
    ([np.zeros((1, 1, 4), np.int32), np.array([2])], {}),
    ([np.zeros((1, 1, 4), np.float32), np.array([0])], {}),
    ([np.zeros((1, 1, 4), np.float32), np.array([2.0])], {}),
    ([np.zeros((1, 1, 4), np.float32), np.array([2, 2])], {}),
    ([np.zeros((1, 1, 4), np.float32), np.array([2])], {"output_type": "i64"}),
    ([np.zeros((1, 1, 4), np.float32), np.array([2])], {"index_element_type": "u32"}),
    ([np.zeros((4, 4), np.float32), np.array([2])], {}),
])
def test_adaptive_spec_violations(inputs: list, attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "AdaptiveMaxPool", 8, inputs, attrs)
