"""OpenVINO Convert-1 and ConvertLike-1 (reference/_convert.py) against loops written from the texts (C++'s
integer conversions, IEEE's nearest for floats, checked with exact rationals), what each leaves open, and planted
mutations the loops catch."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference


def _convert(x: np.ndarray, destination: str) -> reference.Result:
    return reference.evaluate("openvino", "Convert", 1, [x], {"destination_type": destination})


def _nearest(value: Fraction, mantissa: int) -> Fraction:
    """value rounded to ``mantissa`` bits, ties to even (normal range), by exhaustive candidates."""
    if value == 0:
        return value
    exponent = math.floor(math.log2(abs(value)))
    step = Fraction(2) ** (exponent - mantissa + 1)
    low = math.floor(value / step)
    down, up = low * step, (low + 1) * step
    if value - down != up - value:
        return down if value - down < up - value else up
    return down if low % 2 == 0 else up


@pytest.mark.parametrize(("destination", "mantissa"), [("f32", 24), ("f16", 11), ("bf16", 8)])
def test_integers_to_floats_are_the_nearest(destination, mantissa) -> None:
    values = [0, 1, -1, 2049, 16777217, 16777219, 2**53 + 1, -(2**62) - 1, 123456789]
    found = _convert(np.array(values, np.int64), destination)
    for v, got in zip(values, found.outputs[0].astype(np.float64).tolist()):
        want = _nearest(Fraction(v), mantissa)
        if abs(want) <= float(ml_dtypes.finfo({"f32": np.float32, "f16": np.float16,
                                                 "bf16": ml_dtypes.bfloat16}[destination]).max):
            assert Fraction(got) == want, (v, got)


def test_floats_to_integers_where_truncation_and_rounding_agree() -> None:
    x = np.array([3.141592, -2.75, 0.4, -0.4, 2.5, 1e10, np.nan, np.inf, 126.9], np.float32)
    found = _convert(x, "i8")
    for v, got, open_ in zip(x.tolist(), found.outputs[0].tolist(), found.unspecified[0].tolist()):
        defined = math.isfinite(v) and abs(v - math.trunc(v)) < 0.5 and -128 <= math.trunc(v) <= 127
        assert open_ == (not defined)
        if defined:
            assert got == math.trunc(v) == round(v)  # the text's 3.141592 -> 3 reads either way


def test_negative_integers_to_unsigned_modulo_in_convert_undefined_in_convert_like() -> None:
    x = np.array([-1, -256, 5], np.int32)
    found = _convert(x, "u32")
    assert found.outputs[0].tolist() == [v % 2**32 for v in x.tolist()] and found.unspecified[0] is None
    like = reference.evaluate("openvino", "ConvertLike", 1, [x, np.zeros(1, np.uint32)], {})
    assert like.unspecified[0].tolist() == [True, True, False] and like.outputs[0].tolist()[2] == 5


def test_narrowing_signed_beyond_the_range_is_unspecified() -> None:
    found = _convert(np.array([127, 128, -129, -128], np.int32), "i8")
    assert found.unspecified[0].tolist() == [False, True, True, False]


def test_booleans() -> None:
    assert _convert(np.array([0.0, -0.0, np.nan, 0.5], np.float32), "boolean").outputs[0].tolist() == [
        False, False, True, True]  # C++: not 0 is true
    assert _convert(np.array([True, False]), "f32").outputs[0].tolist() == [1.0, 0.0]


def test_what_the_texts_forbid() -> None:
    with pytest.raises(reference.SpecViolation):
        _convert(np.ones(2, np.float32), "f33")
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "Convert", 1, [np.ones(2, np.float32)], {})


def test_planted_mutations_are_caught() -> None:
    """int64 -> float32 through float64 (a double rounding), and rounding half up for a float -> int, differ."""
    v = 2**53 + 2**29 + 1  # float64 rounds it to 2^53 + 2^29, a float32 tie that goes to even: 2^53
    assert np.float32(np.float64(v)) != np.float32(float(_nearest(Fraction(v), 24)))
    assert _convert(np.array([v], np.int64), "f32").outputs[0].tolist() == [float(_nearest(Fraction(v), 24))]
    assert _convert(np.array([2.5], np.float32), "i32").unspecified[0].tolist() == [True]


def test_the_output_type_is_the_destination_type() -> None:
    """Port.dtype_names: Convert's destination_type names the output's dtype (the index types' i32/i64 map
    stays the default for the ports that give none)."""
    from conformance_reference import openvino_convert, openvino_maxpool

    port = openvino_convert.SCHEMA.outputs[0]
    assert port.dtype_for("float32", {"destination_type": "u8"}) == "uint8"
    assert port.dtype_for("int32", {"destination_type": "boolean"}) == "bool"
    indices = openvino_maxpool.SCHEMA.outputs[1]
    assert indices.dtype_for("float32", {"index_element_type": "i32"}) == "int32"
    assert indices.dtype_for("float32", {"index_element_type": "f32"}) == "int64"  # not an index type: the default
