"""OpenVINO Atanh-3 (the text's integer saturation rule), ErfInv-16/17 (the root of erf, its special cases, the
conditioning scale) and Identity-15/16 (a copy of every type) against their texts."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_atanh_signed_integers_saturate_to_the_types_lowest_and_highest(dtype) -> None:
    info = np.iinfo(dtype)
    x = np.array([-100, -2, -1, 0, 1, 2, 100], dtype)
    got = reference.evaluate("openvino", "Atanh", 3, [x], {}).outputs[0]
    np.testing.assert_array_equal(got, [info.min, info.min, info.min, 0, info.max, info.max, info.max])


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_atanh_unsigned_integers(dtype) -> None:
    got = reference.evaluate("openvino", "Atanh", 3, [np.array([0, 1, 200], dtype)], {}).outputs[0]
    np.testing.assert_array_equal(got, [0, np.iinfo(dtype).max, np.iinfo(dtype).max])


def test_atanh_floats_are_atanh() -> None:
    x = np.array([-0.9, -0.5, 0.0, 0.3, 0.99], np.float64)
    got = reference.evaluate("openvino", "Atanh", 3, [x], {}).outputs[0]
    np.testing.assert_allclose(got, [math.atanh(v) for v in x], rtol=1e-15)


@pytest.mark.parametrize("version", [16, 17])
def test_erfinv_is_the_root_of_erf(version) -> None:
    x = np.linspace(-0.999999, 0.999999, 401)
    y = reference.evaluate("openvino", "ErfInv", version, [x], {}).outputs[0]
    back = np.array([math.erf(v) for v in y])
    # erf(y) = x to float64's resolution of erf (the root cannot be closer than erf's own rounding)
    np.testing.assert_allclose(back, x, rtol=0, atol=4e-16)
    assert np.all(np.diff(y) > 0)  # increasing


def test_erfinv_special_cases_of_the_text() -> None:
    x = np.array([0.0, -0.0, 1.0, -1.0, 1.5, -3.0, np.nan], np.float32)
    y = reference.evaluate("openvino", "ErfInv", 17, [x], {}).outputs[0]
    assert y[0] == 0 and math.copysign(1, y[1]) == -1
    assert y[2] == np.inf and y[3] == -np.inf and np.isnan(y[4:]).all()


def test_erfinv_scale_grows_with_the_conditioning_near_one() -> None:
    x = np.array([0.1, 0.999], np.float32)
    scale = reference.magnitude("openvino", "ErfInv", 17, [x], {})[0]
    y = reference.evaluate("openvino", "ErfInv", 17, [x], {}).outputs[0].astype(np.float64)
    slope = 2 / math.sqrt(math.pi) * np.exp(-y * y)
    np.testing.assert_allclose(scale, np.abs(y) + np.abs(x) / slope, rtol=1e-6)
    assert scale[1] > 50 * abs(y[1])  # near 1 the scale is erf's rounding over its slope, not |y|


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64, np.int8, np.uint64, bool])
def test_identity_copies_every_type(dtype) -> None:
    x = np.array([0, 1, 0, 3], dtype=np.float64).astype(dtype)
    for version in (15, 16):
        got = reference.evaluate("openvino", "Identity", version, [x], {}).outputs[0]
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(got, x)


def test_identity_keeps_negative_zero_and_nan() -> None:
    got = reference.evaluate("openvino", "Identity", 16, [np.array([-0.0, np.nan], np.float32)], {}).outputs[0]
    assert math.copysign(1, got[0]) == -1 and np.isnan(got[1])


@pytest.mark.parametrize(("op", "version", "x"), [("ErfInv", 16, np.array([1], np.int32)),
                                                  ("Atanh", 3, np.array([True]))])
def test_types_outside_the_constraints(op, version, x) -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", op, version, [x], {})
