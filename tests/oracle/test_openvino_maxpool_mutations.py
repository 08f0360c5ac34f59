"""Mutation checks: a rule changed in the OpenVINO max pool references must make the comparison with the naive
loop oracle fail (each test breaks one rule and expects the examples to catch it)."""

from __future__ import annotations

import numpy as np
import pytest
from openvino_maxpool_check import check, check_adaptive

from conformance_reference import openvino_adaptive_maxpool, openvino_maxpool

BASE = {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]}
MUTATION_EXAMPLES = [
    (8, np.arange(24, dtype=np.float32).reshape(2, 1, 3, 4) % 7, {**BASE, "axis": 2}),
    (8, np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4), {**BASE, "index_element_type": "i32"}),
    (14, np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3),
     {**BASE, "strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1], "rounding_type": "ceil_torch"}),
    (8, np.arange(1, 5, dtype=np.float32).reshape(1, 1, 4),
     {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [1], "rounding_type": "ceil"}),
    (1, np.array([1, 3, 3, 2], np.float32).reshape(1, 1, 4), {"kernel": [3], "strides": [1], "pads_begin": [0],
                                                               "pads_end": [0]}),
    (8, np.array([1, 3, 3, 2], np.float32).reshape(1, 1, 4), {"kernel": [3], "strides": [1], "pads_begin": [0],
                                                               "pads_end": [0]}),
    (8, np.arange(1, 8, dtype=np.float32).reshape(1, 1, 7),
     {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0], "auto_pad": "same_upper"}),
    (8, np.arange(1, 6, dtype=np.float32).reshape(1, 1, 5),
     {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0], "auto_pad": "valid",
      "rounding_type": "ceil"}),
    (8, np.arange(1, 7, dtype=np.float32).reshape(1, 1, 6),
     {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "dilations": [2]}),
]
ADAPTIVE_EXAMPLES = [
    (np.array([1, 5, 2, 4, 3, 0, 7], np.float32).reshape(1, 1, 7), np.array([3], np.int64), {}),
    (np.arange(30, dtype=np.float32).reshape(2, 3, 5) % 4, np.array([2], np.int32), {"index_element_type": "i32"}),
]


def _caught() -> bool:
    try:
        for version, x, attrs in MUTATION_EXAMPLES:
            check(version, x, attrs)
        for x, size, attrs in ADAPTIVE_EXAMPLES:
            check_adaptive(x, size, attrs)
    except AssertionError:
        return True
    return False


def test_mutation_baseline_passes() -> None:
    assert not _caught()


def test_mutation_axis_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = openvino_maxpool.index_convention
    monkeypatch.setattr(openvino_maxpool, "index_convention", lambda s, r, a: (0, orig(s, r, a)[1]))
    assert _caught()


def test_mutation_index_type_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = openvino_maxpool.index_convention
    monkeypatch.setattr(openvino_maxpool, "index_convention", lambda s, r, a: (orig(s, r, a)[0], np.dtype(np.int64)))
    assert _caught()


@pytest.mark.parametrize("change", [{"torch_ceil": False}, {"ceil": False}])
def test_mutation_rounding(monkeypatch: pytest.MonkeyPatch, change: dict) -> None:
    orig = openvino_maxpool.make_axes
    monkeypatch.setattr(openvino_maxpool, "make_axes", lambda *a, **k: orig(*a, **{**k, **change}))
    assert _caught()


def test_mutation_padding_not_minus_inf(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = openvino_maxpool.select

    def select(x, positions, valid, axis, index_dtype):
        y, i, vmask, imask = orig(x, positions, valid, axis, index_dtype)
        y = np.where(np.isneginf(y.astype(np.float64)), np.finfo(np.float32).min, y).astype(x.dtype)
        return y, i, vmask, imask

    monkeypatch.setattr(openvino_maxpool, "select", select)
    assert _caught()


def test_mutation_last_maximum_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance_reference import _maxwindows

    orig = _maxwindows._taps
    monkeypatch.setattr(_maxwindows, "_taps", lambda p, v: reversed(list(orig(p, v))))
    assert _caught()


def test_mutation_same_output_is_input_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The text's literal "H_out = H" for same_* (wrong for strides > 1) must be caught."""
    from conformance_reference._windows import Axis

    orig = openvino_maxpool.make_axes

    def make_axes(sizes, *args, **kwargs):
        axes = orig(sizes, *args, **kwargs)
        same = args[5] in ("same_upper", "same_lower")
        return [Axis(a.size, a.kernel, a.stride, a.dilation, a.pad_begin, a.pad_end, a.size) if same else a
                for a in axes]

    monkeypatch.setattr(openvino_maxpool, "make_axes", make_axes)
    assert _caught()


def test_mutation_adaptive_floor_end(monkeypatch: pytest.MonkeyPatch) -> None:
    def bounds(size: int, out: int):
        i = np.arange(out, dtype=np.int64)
        return (i * size) // out, ((i + 1) * size) // out

    monkeypatch.setattr(openvino_adaptive_maxpool, "_bounds", bounds)
    assert _caught()


def test_mutation_adaptive_whole_tensor_index(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = openvino_adaptive_maxpool.select
    monkeypatch.setattr(openvino_adaptive_maxpool, "select", lambda x, p, v, axis, t: orig(x, p, v, 0, t))
    assert _caught()
