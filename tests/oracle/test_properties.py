"""Property tests: reference.evaluate against the naive loop oracle (tests/oracle/naive_pool.py) over random
valid attribute / shape / dtype combinations, for every registered version."""

from __future__ import annotations

import ml_dtypes
import naive_pool as naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import conformance_reference as reference

SETTINGS = settings(
    derandomize=True, max_examples=100, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
DTYPES = [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64), np.dtype(ml_dtypes.bfloat16)]


def _versions(domain: str, op: str) -> list[int]:
    return [v for d, o, v in reference.known_ops() if (d, o) == (domain, op)]


@st.composite
def tensors(draw: st.DrawFn, spatial: list[int], channels_last: bool = False) -> np.ndarray:
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    shape = (n, *spatial, c) if channels_last else (n, c, *spatial)
    dtype = draw(st.sampled_from(DTYPES))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        data = rng.integers(-300, 300, size=shape).astype(np.float64)  # integers make rounding ties
    else:
        data = rng.standard_normal(shape) * 4
    return data.astype(dtype)


@st.composite
def geometry(draw: st.DrawFn, max_rank: int = 3) -> dict:
    n = draw(st.integers(1, max_rank))
    ints = lambda lo, hi: st.lists(st.integers(lo, hi), min_size=n, max_size=n)  # noqa: E731
    return {
        "sizes": draw(ints(1, 6)), "kernel": draw(ints(1, 4)), "strides": draw(ints(1, 3)),
        "dilations": draw(ints(1, 2)), "pads_begin": draw(ints(0, 4)), "pads_end": draw(ints(0, 4)),
    }


def _check(result: reference.Result, expected: np.ndarray, mask: np.ndarray | None) -> None:
    (y,), (unspec,) = result.outputs, result.unspecified
    assert y.dtype == expected.dtype
    assert y.shape == expected.shape
    got_mask = np.zeros(y.shape, bool) if unspec is None else unspec
    want_mask = np.zeros(y.shape, bool) if mask is None else mask
    np.testing.assert_array_equal(got_mask, want_mask)
    assert np.isnan(y.astype(np.float64)[got_mask]).all()
    a, b = y.astype(np.float64)[~got_mask], expected.astype(np.float64)[~want_mask]
    if y.dtype == np.float64:  # float64 accumulation of float64 inputs is not exact: a few ulps
        np.testing.assert_allclose(a, b, rtol=1e-14, atol=1e-13)
    else:  # exact average, correctly rounded: bit-exact
        np.testing.assert_array_equal(a, b)


def _compare(domain: str, op: str, version: int, x: np.ndarray, attrs: dict, oracle) -> None:
    try:
        expected, mask, most = oracle()
    except naive.Empty:
        with pytest.raises(reference.SpecViolation):
            reference.evaluate(domain, op, version, [x], attrs)
        with pytest.raises(reference.SpecViolation):
            reference.output_shapes(domain, op, version, [x.shape], attrs)
        return
    result = reference.evaluate(domain, op, version, [x], attrs)
    _check(result, expected, mask)
    assert reference.output_shapes(domain, op, version, [x.shape], attrs) == [expected.shape]
    assert reference.window_elements(domain, op, version, [x.shape], attrs) == most


@pytest.mark.parametrize("version", _versions("ai.onnx", "AveragePool"))
@SETTINGS
@given(data=st.data())
def test_onnx_averagepool(version: int, data: st.DataObject) -> None:
    g = data.draw(geometry())
    n = len(g["sizes"])
    x = data.draw(tensors(g["sizes"]))
    attrs: dict = {"kernel_shape": g["kernel"]}
    if data.draw(st.booleans()):
        attrs["strides"] = g["strides"]
    auto = data.draw(st.sampled_from(["NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"]))
    if auto != "NOTSET":
        attrs["auto_pad"] = auto
    elif data.draw(st.booleans()):
        attrs["pads"] = g["pads_begin"] + g["pads_end"]
    if version >= 7 and data.draw(st.booleans()):
        attrs["count_include_pad"] = data.draw(st.integers(0, 1))
    if version >= 10 and data.draw(st.booleans()):
        attrs["ceil_mode"] = data.draw(st.integers(0, 1))
    if version >= 19 and data.draw(st.booleans()):
        attrs["dilations"] = g["dilations"]
    assert len(attrs["kernel_shape"]) == n
    _compare("ai.onnx", "AveragePool", version, x, attrs, lambda: naive.onnx_averagepool(version, x, attrs))


@pytest.mark.parametrize("version", _versions("openvino", "AvgPool"))
@SETTINGS
@given(data=st.data())
def test_openvino_avgpool(version: int, data: st.DataObject) -> None:
    g = data.draw(geometry())
    x = data.draw(tensors(g["sizes"]))
    attrs: dict = {
        "kernel": g["kernel"], "strides": g["strides"], "pads_begin": g["pads_begin"], "pads_end": g["pads_end"],
        "exclude-pad": data.draw(st.booleans()),
    }
    roundings = ["floor", "ceil"] + (["ceil_torch"] if version >= 14 else [])
    if data.draw(st.booleans()):
        attrs["rounding_type"] = data.draw(st.sampled_from(roundings))
    if data.draw(st.booleans()):
        attrs["auto_pad"] = data.draw(st.sampled_from(["explicit", "same_upper", "same_lower", "valid"]))
    if version >= 16 and data.draw(st.booleans()):
        attrs["dilations"] = g["dilations"]
    _compare("openvino", "AvgPool", version, x, attrs, lambda: naive.openvino_avgpool(version, x, attrs))


@SETTINGS
@given(data=st.data())
def test_onednn_avgpool(data: st.DataObject) -> None:
    g = data.draw(geometry())
    fmt = data.draw(st.sampled_from(["NXC", "NCX", None]))
    x = data.draw(tensors(g["sizes"], channels_last=fmt != "NCX"))
    attrs: dict = {
        "kernel": g["kernel"], "strides": g["strides"], "pads_begin": g["pads_begin"], "pads_end": g["pads_end"],
        "exclude_pad": data.draw(st.booleans()),
    }
    if fmt is not None:
        attrs["data_format"] = fmt
    if data.draw(st.booleans()):
        attrs["rounding_type"] = data.draw(st.sampled_from(["floor", "ceil"]))
    if data.draw(st.booleans()):
        attrs["auto_pad"] = data.draw(st.sampled_from(["None", "SAME_UPPER", "SAME_LOWER", "VALID", "same_upper"]))
    _compare("onednn", "AvgPool", 1, x, attrs, lambda: naive.onednn_avgpool(x, attrs))


@SETTINGS
@given(data=st.data())
def test_openvino_adaptive_avgpool(data: st.DataObject) -> None:
    g = data.draw(geometry())
    x = data.draw(tensors(g["sizes"]))
    out = np.array(data.draw(st.lists(st.integers(1, 7), min_size=len(g["sizes"]), max_size=len(g["sizes"]))),
                   dtype=data.draw(st.sampled_from([np.int32, np.int64])))
    result = reference.evaluate("openvino", "AdaptiveAvgPool", 8, [x, out], {})
    _check(result, naive.adaptive_avgpool(x, out), None)
    shapes = reference.output_shapes("openvino", "AdaptiveAvgPool", 8, [x.shape, out.shape], {}, {1: out})
    assert shapes == [result.outputs[0].shape]


@pytest.mark.parametrize("version", _versions("ai.onnx", "GlobalAveragePool"))
@SETTINGS
@given(data=st.data())
def test_onnx_globalaveragepool(version: int, data: st.DataObject) -> None:
    g = data.draw(geometry())
    x = data.draw(tensors(g["sizes"]))
    result = reference.evaluate("ai.onnx", "GlobalAveragePool", version, [x], {})
    _check(result, naive.global_avgpool(x), None)
    shapes = reference.output_shapes("ai.onnx", "GlobalAveragePool", version, [x.shape], {})
    assert shapes == [x.shape[:2] + (1,) * (x.ndim - 2)]
