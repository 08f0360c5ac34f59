"""The MaxPool reference checked against the naive loop oracle, output by output (shared by the property and
mutation tests)."""

from __future__ import annotations

import ml_dtypes
import naive_maxpool as naive
import numpy as np
import pytest

import conformance_reference as reference

BF16 = np.dtype(ml_dtypes.bfloat16)
_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(_BITS[a.dtype.itemsize])


def _run(version: int, x: np.ndarray, attrs: dict) -> reference.Result:
    return reference.evaluate("ai.onnx", "MaxPool", version, [x], attrs)


def check(version: int, x: np.ndarray, attrs: dict) -> str:
    """The reference agrees with the naive oracle: shapes, masks, values (bit for bit), Indices, tap indices."""
    try:
        want_y, want_i, want_mask, want_taps = naive.maxpool(version, x, attrs)
    except naive.Empty:
        with pytest.raises(reference.SpecViolation):
            _run(version, x, attrs)
        with pytest.raises(reference.SpecViolation):
            reference.output_shapes("ai.onnx", "MaxPool", version, [x.shape], attrs)
        return "empty output: SpecViolation"
    res = _run(version, x, attrs)
    n_out = 1 if version < 8 else 2
    assert len(res.outputs) == len(res.unspecified) == n_out
    y = res.outputs[0]
    assert y.dtype == x.dtype and y.shape == want_y.shape
    mask = np.zeros(y.shape, bool) if res.unspecified[0] is None else res.unspecified[0]
    np.testing.assert_array_equal(mask, want_mask)
    np.testing.assert_array_equal(_bits(y)[~mask], _bits(want_y)[~mask])  # exact, sign of zero included
    if y.dtype.kind == "f" or y.dtype == BF16:
        assert np.isnan(y.astype(np.float64)[mask]).all()
    else:
        assert (y[mask] == 0).all()
    if n_out == 2:
        ind = res.outputs[1]
        assert ind.dtype == np.int64 and ind.shape == y.shape
        imask = np.zeros(y.shape, bool) if res.unspecified[1] is None else res.unspecified[1]
        np.testing.assert_array_equal(imask, want_mask)
        np.testing.assert_array_equal(ind, want_i)  # -1 where unspecified
    shapes = reference.output_shapes("ai.onnx", "MaxPool", version, [x.shape], attrs)
    assert shapes == [y.shape] * n_out
    np.testing.assert_array_equal(reference.window_indices("ai.onnx", "MaxPool", version, x.shape, attrs),
                                  want_taps)
    most = int((want_taps >= 0).sum(axis=-1).max(initial=0))
    assert reference.window_elements("ai.onnx", "MaxPool", version, [x.shape], attrs) == most
    return "some output unspecified" if want_mask.any() else "all specified"
