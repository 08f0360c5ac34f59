"""Mutation checks: a formula change in the MaxPool reference must make the comparison with the naive loop
oracle fail (each test breaks one rule and expects the examples to catch it)."""

from __future__ import annotations

import numpy as np
import pytest
from maxpool_check import check

from conformance_reference import _onnx_windows, onnx_maxpool

CEIL_IN_RIGHT_PAD = {"kernel_shape": [2], "strides": [2], "pads": [0, 1], "ceil_mode": 1}

# ---------------------------------------------------------------------------------------------------------------
# mutation checks: a formula change in the reference must make check() fail

MUTATION_EXAMPLES = [
    (12, np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) % 7, {"kernel_shape": [2, 2], "storage_order": 1}),
    (12, np.arange(1, 5, dtype=np.float32).reshape(1, 1, 4), CEIL_IN_RIGHT_PAD),
    (22, np.arange(1, 5, dtype=np.float32).reshape(1, 1, 4), CEIL_IN_RIGHT_PAD),
    (12, np.array([1, 3, 3, 2], np.float32).reshape(1, 1, 4), {"kernel_shape": [3]}),
    (12, np.array([-3, -2, -1], np.float32).reshape(1, 1, 3), {"kernel_shape": [2], "pads": [1, 1]}),
    (12, np.array([5, np.nan, 1, 2], np.float32).reshape(1, 1, 4), {"kernel_shape": [2], "strides": [2]}),
    (22, np.arange(6, dtype=np.float32).reshape(2, 1, 3), {"kernel_shape": [2]}),
]


def _caught() -> bool:
    try:
        for version, x, attrs in MUTATION_EXAMPLES:
            check(version, x, attrs)
    except AssertionError:
        return True
    return False


def test_mutation_baseline_passes() -> None:
    assert not _caught()


def test_mutation_storage_order_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = onnx_maxpool._spatial_strides
    monkeypatch.setattr(onnx_maxpool, "_spatial_strides", lambda sizes, order: orig(sizes, 0))
    assert _caught()


def test_mutation_ceil_rule_of_22_at_12(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = _onnx_windows.make_axes
    monkeypatch.setattr(_onnx_windows, "make_axes", lambda *a, **k: orig(*a, **{**k, "torch_ceil": True}))
    assert _caught()


def test_mutation_ceil_rule_of_22_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = _onnx_windows.make_axes
    monkeypatch.setattr(_onnx_windows, "make_axes", lambda *a, **k: orig(*a, **{**k, "torch_ceil": False}))
    assert _caught()


def test_mutation_last_maximum_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    real = onnx_maxpool._taps
    monkeypatch.setattr(onnx_maxpool, "_taps", lambda axes: reversed(list(real(axes))))
    assert _caught()


def test_mutation_padded_taps_read(monkeypatch: pytest.MonkeyPatch) -> None:
    real = onnx_maxpool._taps

    def taps_all_inside(axes):
        for pos, inside in real(axes):
            yield pos, [np.ones_like(m) for m in inside]

    monkeypatch.setattr(onnx_maxpool, "_taps", taps_all_inside)
    assert _caught()


def test_mutation_nan_not_unspecified(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_maxpool, "_is_nan", lambda v: np.zeros(v.shape, bool))
    assert _caught()


def test_mutation_n_c_offset_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_maxpool, "_nc_base", lambda lead, plane, n_axes: np.zeros((1,) * (2 + n_axes), np.int64))
    assert _caught()
