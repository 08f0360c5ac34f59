"""Mutation checks: a formula change in the LpPool references must make the comparison with the naive loop
oracle fail (each test breaks one rule and expects the examples to catch it)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from lppool_check import check_global_lppool, check_lppool

from conformance_reference import _onnx_windows, _pnorm, onnx_globallppool, onnx_lppool

CEIL_IN_RIGHT_PAD = {"kernel_shape": [2], "strides": [2], "pads": [0, 1], "ceil_mode": 1}
ODD = np.array([-1, -2, -3, -4, 5, -6], np.float32).reshape(1, 1, 6)
EXAMPLES = [
    (18, ODD, {"kernel_shape": [2], "p": 3}),
    (11, ODD, {"kernel_shape": [3], "pads": [2, 1]}),
    (18, np.arange(1, 5, dtype=np.float32).reshape(1, 1, 4), CEIL_IN_RIGHT_PAD),
    (22, np.arange(1, 5, dtype=np.float32).reshape(1, 1, 4), CEIL_IN_RIGHT_PAD),
    (22, np.array([1e20, -1e20, 3e-30, 4e-30], np.float32).reshape(1, 1, 4), {"kernel_shape": [2]}),
    (1, (np.arange(24, dtype=np.float64).reshape(1, 2, 3, 4) - 11) / 7, {"kernel_shape": [2, 2], "p": 2.5}),
]
GLOBAL = [(2, ODD, {"p": 3}), (22, np.array([1e20, 2e20], np.float32).reshape(1, 1, 2), {}),
          (1, (np.arange(40, dtype=np.float64).reshape(2, 2, 10) - 13) / 3, {"p": 1.5})]


def _caught() -> bool:
    try:
        for version, x, attrs in EXAMPLES:
            check_lppool(version, x, attrs)
        for version, x, attrs in GLOBAL:
            check_global_lppool(version, x, attrs)
    except AssertionError:
        return True
    return False


def test_mutation_baseline_passes() -> None:
    assert not _caught()


@pytest.mark.parametrize("module", [onnx_lppool, onnx_globallppool])
def test_mutation_p_off_by_one(monkeypatch: pytest.MonkeyPatch, module) -> None:
    real = _pnorm.exponent
    monkeypatch.setattr(module, "exponent", lambda *a, **k: real(*a, **k) + 1)
    assert _caught()


def test_mutation_padding_shifted(monkeypatch: pytest.MonkeyPatch) -> None:
    real = onnx_lppool.onnx_axes

    def shifted(*a, **k):
        return [dataclasses.replace(ax, pad_begin=ax.pad_begin + 1) for ax in real(*a, **k)]

    monkeypatch.setattr(onnx_lppool, "onnx_axes", shifted)
    assert _caught()


def test_mutation_padded_taps_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # padding read as the nearest edge element instead of adding nothing (1-D windows; others unchanged)
    real = onnx_lppool.window_terms

    def edge_padded(x, axes):
        if len(axes) != 1:
            return real(x, axes)
        return np.abs(x[..., np.clip(axes[0].taps(), 0, axes[0].size - 1)])

    monkeypatch.setattr(onnx_lppool, "window_terms", edge_padded)
    assert _caught()


def test_mutation_sign_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    real = onnx_lppool.window_terms
    monkeypatch.setattr(onnx_lppool, "window_terms", lambda x, axes: -real(x, axes))
    assert _caught()


def test_mutation_ceil_rule_of_22_at_18(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _onnx_windows.make_axes
    monkeypatch.setattr(_onnx_windows, "make_axes", lambda *a, **k: real(*a, **{**k, "torch_ceil": True}))
    assert _caught()


def test_mutation_ceil_rule_of_22_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _onnx_windows.make_axes
    monkeypatch.setattr(_onnx_windows, "make_axes", lambda *a, **k: real(*a, **{**k, "torch_ceil": False}))
    assert _caught()


@pytest.mark.parametrize("module", [onnx_lppool, onnx_globallppool])
def test_mutation_unscaled_sum_in_the_input_type(monkeypatch: pytest.MonkeyPatch, module) -> None:
    # sum |x|^p evaluated in float32 overflows where the norm is representable
    def naive_norm(terms, p):
        with np.errstate(over="ignore"):
            t = terms.astype(np.float32)
            return np.power(np.power(t, np.float32(p)).sum(axis=-1), np.float32(1 / p)).astype(terms.dtype)

    monkeypatch.setattr(module, "pnorm", naive_norm)
    assert _caught()


def test_mutation_float64_work_for_float64(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_lppool, "work_dtype", lambda dtype: np.dtype(np.float32))
    assert _caught()
