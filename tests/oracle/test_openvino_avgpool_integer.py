"""OpenVINO AvgPool-14/-16 on integer inputs (reference/openvino_avgpool.py, docs/spec-notes.md V7): the text allows
"floating point or integer type" and states no rounding. The reference returns the exact mean rounded to the
nearest integer, ties to even; the values pinned here are what OpenVINO 2026.4's CPU plugin returns for them."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import openvino_avgpool

BASE = {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0], "exclude-pad": True}
PAIRS = [1, 2, 3, 4, -1, -2, -3, -4, 5, 6, -5, 6, 0, -1, 126, 127]  # means 1.5, 3.5, ..., 0.5, -0.5, 126.5


@pytest.mark.parametrize(("version", "dtype"), itertools.product((14, 16), ("int8", "int32", "int64")))
def test_ties_to_even(version: int, dtype: str) -> None:
    x = np.array([[PAIRS]], dtype=dtype)
    y = reference.evaluate("openvino", "AvgPool", version, [x], BASE).outputs[0]
    assert y.dtype == x.dtype
    assert y.ravel().tolist() == [2, 4, -2, -4, 6, 0, 0, 126]


def test_nearest_and_padding() -> None:
    thirds = np.array([[[1, 0, 0, 2, 0, 0, -1, 0, 0, -2, 0, 0]]], np.int32)
    three = {**BASE, "kernel": [3], "strides": [3]}
    assert reference.evaluate("openvino", "AvgPool", 14, [thirds], three).outputs[0].ravel().tolist() == [0, 1, 0, -1]
    x = np.array([[[3, 5, 7]]], np.uint8)
    for exclude, want in ((True, [3, 6]), (False, [2, 6])):  # 3/1, 12/2; 3/2 = 1.5 -> 2, 6
        attrs = {**BASE, "pads_begin": [1], "exclude-pad": exclude}
        assert reference.evaluate("openvino", "AvgPool", 16, [x], attrs).outputs[0].ravel().tolist() == want


def test_any_admissible_rounding_is_within_one_of_the_exact_mean() -> None:
    """The comparator's model: floor or ceil of the float64 mean (the op on the float64 input)."""
    rng = np.random.default_rng(0)
    x = rng.integers(-128, 128, size=(2, 3, 7, 6)).astype(np.int8)
    attrs = {"kernel": [3, 2], "strides": [2, 1], "pads_begin": [1, 0], "pads_end": [1, 1], "exclude-pad": False,
             "rounding_type": "ceil_torch"}
    y = reference.evaluate("openvino", "AvgPool", 14, [x], attrs).outputs[0].astype(np.float64)
    exact = reference.evaluate("openvino", "AvgPool", 14, [x.astype(np.float64)], attrs).outputs[0]
    assert np.all((np.floor(exact) <= y) & (y <= np.ceil(exact)))


def test_avgpool_1_stays_floating_point() -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "AvgPool", 1, [np.ones((1, 1, 4), np.int32)], BASE)
    assert openvino_avgpool.integer_dtypes(1) == ()
    assert "int8" in openvino_avgpool.integer_dtypes(14) and "uint64" in openvino_avgpool.integer_dtypes(16)
