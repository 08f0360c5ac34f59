"""The ULP figure where 0 or a subnormal is expected (issue 48: "ulp 6.974e+44" for a Relu record). An ULP of 0 is
the smallest subnormal, and so is the ULP of the smallest normal: measuring there instead would change nothing. Such
elements get no ULP figure (their absolute error is the figure), and what passes or fails does not change."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from conformance.compare.tolerance import Policy, policy_for
from conformance.compare.values import compare
from conformance.dtypes import numpy, ulp
from conformance.plugin.failure_text import failure_text
from conformance.records import ResultRecord

FLOATS = ["float16", "bfloat16", "float32", "float64"]


def relu_record(expected: np.ndarray, actual: np.ndarray) -> ResultRecord:
    c = compare(expected, actual, Policy(window=1, dtype="float32", model="exact"), name="Y")
    return ResultRecord(id="ai.onnx/Relu-14/zeros[float32]", op="Relu", domain="ai.onnx", version=14,
                        dtype="float32", backend="acme", status="fail", reason=c.reason, mismatches=c.mismatches,
                        elements=c.elements, max_abs_err=c.max_abs_err, max_rel_err=c.max_rel_err,
                        max_ulp=c.max_ulp, worst=c.worst, error_grid=c.error_grid, error_grid_at=c.grid_at)


def zero_expected() -> tuple[np.ndarray, np.ndarray]:
    """A Relu whose runtime leaves a negative input's 0 at 0.9773: 6.974e+44 ULPs of 0 in float32."""
    expected = np.zeros((2, 3), np.float32)
    actual = expected.copy()
    actual[1, 2] = np.float32(0.9773)
    return expected, actual


@pytest.mark.parametrize("name", FLOATS)
def test_the_ulp_of_zero_is_the_ulp_of_the_smallest_normal(name: str) -> None:
    """Why the figure is left out rather than measured at the smallest normal: the two ULPs are one number."""
    info = ml_dtypes.finfo(numpy(name))
    zero, smallest_normal = ulp(np.array([0.0, float(info.smallest_normal)]), name)
    assert zero == smallest_normal == float(info.smallest_subnormal)


def test_no_ulp_figure_where_zero_is_expected() -> None:
    record = relu_record(*zero_expected())
    assert record.max_abs_err == pytest.approx(0.9773) and record.max_ulp == 0.0
    assert [(w["index"], w["ulp"]) for w in record.worst] == [([1, 2], None)]  # it was 6.974e+44


@pytest.mark.parametrize("name", FLOATS)
def test_a_subnormal_expected_value_has_none_a_normal_one_keeps_it(name: str) -> None:
    dtype = numpy(name)
    info = ml_dtypes.finfo(dtype)
    tiny, normal = float(info.smallest_subnormal), float(info.smallest_normal)
    expected = np.array([3 * tiny, 0.0, normal, 1.0], dtype)
    actual = np.array([0.0, tiny, normal * 2, np.nextafter(dtype.type(1), dtype.type(2))], dtype)
    c = compare(expected, actual, policy_for(name, 1, {}, "b", model="exact"))
    ulps = {tuple(w["index"]): w["ulp"] for w in c.worst}
    assert ulps[(0,)] is None and ulps[(1,)] is None
    assert ulps[(2,)] == 2 ** info.nmant and ulps[(3,)] == 1  # normal: |err| / ULP of the expected value
    assert c.max_ulp == 2 ** info.nmant and c.max_abs_err == float(info.eps)  # every error counts there
    assert c.mismatches == 4 and not c.ok  # the verdict is the bound's, not the figure's


def test_integers_keep_their_ulp_of_one() -> None:
    c = compare(np.array([0, 5], np.int32), np.array([3, 5], np.int32), policy_for("int32", 1, {}, "b",
                                                                                  model="exact"))
    assert c.max_ulp == 3.0 and c.worst[0]["ulp"] == 3.0


def test_the_terminal_says_why_there_is_no_ulp_figure() -> None:
    text = failure_text(relu_record(*zero_expected()))
    assert "max ulp - (errors only where 0 or a subnormal is expected: see max abs err)" in text
    assert "at [1, 2]: expected 0.0 actual 0.9773 |err| 0.977 allowed 0 (no ulp: 0 or a subnormal expected)" in text
    assert "e+44" not in text
    # beside an error where a normal value is expected, max ulp is that element's
    expected, actual = zero_expected()
    expected[0, 0], actual[0, 0] = 1.0, np.nextafter(np.float32(1), np.float32(2))
    text = failure_text(relu_record(expected, actual))
    assert "max ulp 1\n" in text and "at [0, 0]: expected 1.0 actual 1.0000001 |err| 1.19e-07 allowed 0 (1 ulp)" in text
