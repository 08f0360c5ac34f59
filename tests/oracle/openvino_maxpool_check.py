"""The OpenVINO max pool references checked against the naive loop oracle, output by output (shared by the
property and mutation tests)."""

from __future__ import annotations

import ml_dtypes
import naive_openvino_maxpool as naive
import numpy as np
import pytest

import conformance_reference as reference

BF16 = np.dtype(ml_dtypes.bfloat16)
_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(_BITS[a.dtype.itemsize])


def _mask(m: np.ndarray | None, shape) -> np.ndarray:
    return np.zeros(shape, bool) if m is None else m


def _compare(res: reference.Result, want, n_out: int) -> None:
    want_y, want_i, want_vmask, want_imask = want[:4]
    y = res.outputs[0]
    assert len(res.outputs) == len(res.unspecified) == n_out
    assert y.dtype == want_y.dtype and y.shape == want_y.shape
    vmask = _mask(res.unspecified[0], y.shape)
    np.testing.assert_array_equal(vmask, want_vmask)
    np.testing.assert_array_equal(bits(y)[~vmask], bits(want_y)[~vmask])  # exact, sign of zero and -inf included
    if n_out == 2:
        ind = res.outputs[1]
        assert ind.dtype == want_i.dtype and ind.shape == y.shape
        np.testing.assert_array_equal(_mask(res.unspecified[1], y.shape), want_imask)
        np.testing.assert_array_equal(ind, want_i)  # -1 where unspecified


def check(version: int, x: np.ndarray, attrs: dict) -> str:
    """MaxPool-1/8/14: shapes, masks, values (bit for bit), indices, per-tap indices and positions."""
    try:
        want = naive.maxpool(version, x, attrs)
    except naive.Empty:
        with pytest.raises(reference.SpecViolation):
            reference.evaluate("openvino", "MaxPool", version, [x], attrs)
        with pytest.raises(reference.SpecViolation):
            reference.output_shapes("openvino", "MaxPool", version, [x.shape], attrs)
        return "empty output: SpecViolation"
    res = reference.evaluate("openvino", "MaxPool", version, [x], attrs)
    n_out = 1 if version < 8 else 2
    _compare(res, want, n_out)
    assert reference.output_shapes("openvino", "MaxPool", version, [x.shape], attrs) == [want[0].shape] * n_out
    if n_out == 2:
        taps, places = reference.window_taps("openvino", "MaxPool", version, x.shape, attrs)
        np.testing.assert_array_equal(taps, want[4])
        np.testing.assert_array_equal(places, want[5])
    most = int((want[5] >= 0).sum(axis=-1).max(initial=0))
    assert reference.window_elements("openvino", "MaxPool", version, [x.shape], attrs) == most
    return "some output unspecified" if want[3].any() else "all specified"


def check_adaptive(x: np.ndarray, size: np.ndarray, attrs: dict) -> str:
    """AdaptiveMaxPool-8: as ``check``; the per-tap arrays are compared as sets (the reference pads short windows
    with -1 taps between valid ones)."""
    want = naive.adaptive(x, [int(v) for v in size], attrs)
    res = reference.evaluate("openvino", "AdaptiveMaxPool", 8, [x, size], attrs)
    _compare(res, want, 2)
    taps, places = reference.window_taps("openvino", "AdaptiveMaxPool", 8, x.shape, attrs, {1: size})
    for got, expected in ((taps, want[4]), (places, want[5])):
        flat_got, flat_want = got.reshape(-1, got.shape[-1]), expected.reshape(-1, expected.shape[-1])
        for g, w in zip(flat_got, flat_want):
            assert sorted(g[g >= 0].tolist()) == sorted(w[w >= 0].tolist())
    most = int((want[5] >= 0).sum(axis=-1).max(initial=0))
    assert reference.window_elements("openvino", "AdaptiveMaxPool", 8, [x.shape, size.shape], attrs, {1: size}) == most
    return "some output unspecified" if want[3].any() else "all specified"
