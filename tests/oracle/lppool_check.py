"""The LpPool / GlobalLpPool references checked against the naive loop oracle (shared by the property, mutation
and node tests): shapes, dtypes, and values within one unit in the last place of the output type (both round a
wide-precision norm to the dtype once, through float64; NaN and inf must match exactly)."""

from __future__ import annotations

import ml_dtypes
import naive_lppool as naive
import naive_maxpool
import numpy as np
import pytest

import conformance_reference as reference

BF16 = np.dtype(ml_dtypes.bfloat16)


def ulps_apart(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in units of the dtype's spacing at b (float64 values; inf/NaN handled by the caller)."""
    info = ml_dtypes.finfo(a.dtype)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    _, e = np.frexp(np.where(b64 == 0, 1.0, np.abs(b64)))
    spacing = np.ldexp(1.0, np.maximum(e.astype(np.int64) - 1, int(info.minexp)) - int(info.nmant))
    return np.abs(a64 - b64) / spacing


def assert_close(got: np.ndarray, want: np.ndarray, max_ulps: float = 1.0) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    g, w = got.astype(np.float64), want.astype(np.float64)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
    special = np.isnan(w) | np.isinf(w)
    np.testing.assert_array_equal(g[special & ~np.isnan(w)], w[special & ~np.isnan(w)])
    finite = ~special
    assert not np.isinf(g[finite]).any()
    if finite.any():
        worst = float(ulps_apart(got[finite], want[finite]).max())
        assert worst <= max_ulps, f"{worst} ulps apart"


def check_lppool(version: int, x: np.ndarray, attrs: dict) -> str:
    try:
        want = naive.lppool(version, x, attrs)
    except naive_maxpool.Empty:
        with pytest.raises(reference.SpecViolation):
            reference.evaluate("ai.onnx", "LpPool", version, [x], attrs)
        return "empty output: SpecViolation"
    res = reference.evaluate("ai.onnx", "LpPool", version, [x], attrs)
    assert len(res.outputs) == 1 and res.unspecified == [None]
    assert_close(res.outputs[0], want)
    assert reference.output_shapes("ai.onnx", "LpPool", version, [x.shape], attrs) == [want.shape]
    return "ok"


def check_global_lppool(version: int, x: np.ndarray, attrs: dict) -> None:
    want = naive.global_lppool(x, float(attrs.get("p", 2)))
    res = reference.evaluate("ai.onnx", "GlobalLpPool", version, [x], attrs)
    assert res.unspecified == [None]
    assert_close(res.outputs[0], want)
    assert reference.output_shapes("ai.onnx", "GlobalLpPool", version, [x.shape], attrs) == [want.shape]
