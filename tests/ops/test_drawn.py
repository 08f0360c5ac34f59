"""Draws judged by their rule (ops/drawn.py), never against another draw: Dropout in training mode, RandomUniform and
RandomNormal (range, dtype, and the moments of a large sample at a false-alarm rate of 1e-9)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from onnx import TensorProto, helper
from whole_model import judge, node_case

from conformance.dtypes import dtype_name
from conformance.model import Case, TensorSpec
from conformance.ops import drawn

RNG = np.random.default_rng(46)


def dropout_case(x: np.ndarray, ratio: float, mask: bool) -> tuple:
    """A training-mode Dropout test with a stored draw (another draw than any the tests judge)."""
    keep = RNG.random(x.shape) >= ratio
    y = np.where(keep, x / np.float32(1 - ratio), 0).astype(np.float32)
    outputs = {"y": y, "m": keep} if mask else {"y": y}
    inputs = {"x": x, "r": np.array(ratio, np.float32), "t": np.array(True)}
    return node_case("Dropout", inputs, outputs, opset=13), inputs


def draw(x: np.ndarray, ratio: float) -> tuple[np.ndarray, np.ndarray]:
    keep = RNG.random(x.shape) >= ratio
    return np.where(keep, x * np.float32(1 / (1 - ratio)), 0).astype(np.float32), keep


X = RNG.standard_normal((8, 16)).astype(np.float32)


def test_a_correct_draw_passes_and_the_record_is_the_same_for_every_draw() -> None:
    case, _ = dropout_case(X, 0.3, mask=True)
    records = [judge(case, *draw(X, 0.3)) for _ in range(3)]
    assert all(r["status"] == "pass" for r in records), records[0]
    assert records[0] == records[1] == records[2]
    assert records[0]["tolerance"].startswith("dropout (training)")
    assert records[0]["max_abs_err"] is None and not records[0]["worst"]


def test_a_kept_element_is_judged_by_three_roundings_of_x_over_1_minus_ratio() -> None:
    """Pinned: a kept element within 3·u·|x/(1 - ratio)| passes, beyond it fails (the values an ULP apart around
    it, so a factor 2 on the bound flips some)."""
    case, _ = dropout_case(X, 0.3, mask=False)
    y, keep = draw(X, 0.3)
    at = tuple(np.argwhere(keep & (np.abs(X) > 0.1))[0])
    target = float(X[at]) / (1 - float(np.float32(0.3)))
    nearest = np.float32(target)
    verdicts = []
    for k in range(-7, 8):
        value = np.float32(nearest + k * np.spacing(nearest))
        planted = y.copy()
        planted[at] = value
        within = abs(float(value) - target) <= drawn.ROUNDINGS * 2.0 ** -24 * abs(target)
        verdicts.append(within)
        assert (judge(case, planted)["status"] == "pass") == within, k
    assert any(verdicts) and not all(verdicts)
    unscaled = y.copy()
    unscaled[at] = X[at]  # kept but not scaled
    judged = judge(case, unscaled)
    assert judged["status"] == "fail" and "neither 0 nor x/(1 - ratio)" in judged["reason"]


def test_ratio_zero_is_the_identity_a_planted_2e_3_error_fails() -> None:
    case, _ = dropout_case(X, 0.0, mask=True)
    assert judge(case, X.copy(), np.ones(X.shape, bool))["status"] == "pass"
    planted = X.copy()
    planted[3, 5] *= np.float32(1 + 2e-3)
    judged = judge(case, planted, np.ones(X.shape, bool))
    assert judged["status"] == "fail" and "ratio 0 keeps every element" in judged["reason"]
    dropped = X.copy()
    dropped[0, 0] = 0
    assert judge(case, dropped, np.ones(X.shape, bool))["status"] == "fail"
    mask = np.ones(X.shape, bool)
    mask[1, 1] = False
    assert judge(case, X.copy(), mask)["status"] == "fail"


def test_a_mask_inconsistent_with_the_output_fails() -> None:
    case, _ = dropout_case(X, 0.5, mask=True)
    y, keep = draw(X, 0.5)
    at = tuple(np.argwhere(keep & (X != 0))[0])
    wrong = keep.copy()
    wrong[at] = False  # the output keeps x there
    judged = judge(case, y, wrong)
    assert judged["status"] == "fail" and "disagree with the output" in judged["reason"]
    # where x is 0 the output is 0 either way: the mask may say either
    x = X.copy()
    x[2, 2] = 0
    case, _ = dropout_case(x, 0.5, mask=True)
    y, keep = draw(x, 0.5)
    flipped = keep.copy()
    flipped[2, 2] = not flipped[2, 2]
    assert judge(case, y, flipped)["status"] == "pass"


def test_a_wrong_dtype_or_shape_fails() -> None:
    case, _ = dropout_case(X, 0.3, mask=True)
    y, keep = draw(X, 0.3)
    assert judge(case, y.astype(np.float64), keep)["status"] == "fail"
    assert judge(case, y, keep.astype(np.float32))["status"] == "fail"
    assert judge(case, y[:4], keep)["status"] == "fail"


def sampled_case(op: str, shape: tuple[int, ...], **attributes) -> Case:
    """A model of one RandomUniform/RandomNormal node (no input) and a stored draw of zeros (never compared)."""
    node = helper.make_node(op, [], ["y"], shape=list(shape), **attributes)
    stored = np.zeros(shape, np.float32)
    graph = helper.make_graph([node], f"test_{op.lower()}", [],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(stored.shape))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return Case(id=f"test_{op.lower()}", op=op, domain="ai.onnx", versions=(18,), source="onnx-example",
                attributes={}, inputs=(), outputs=(TensorSpec(name="y", shape=stored.shape,
                                                              dtype=dtype_name(stored.dtype), array=stored),),
                dtypes=("float32",), model=model.SerializeToString())


def test_uniform_draws_are_judged_by_range_and_mean() -> None:
    case = sampled_case("RandomUniform", (100, 100), low=-2.0, high=3.0)
    good = RNG.uniform(-2, 3, (100, 100)).astype(np.float32)
    judged = judge(case, good)
    assert judged["status"] == "pass" and judged["tolerance"].startswith("random uniform draw")
    outside = good.copy()
    outside[7, 7] = 3.01
    assert judge(case, outside)["status"] == "fail"
    # in range but not uniform: every draw in the upper half moves the mean by 1.25
    assert "Hoeffding" in judge(case, np.abs(good - 0.5).astype(np.float32) + 0.5)["reason"]


def test_normal_draws_are_judged_by_mean_and_spread() -> None:
    case = sampled_case("RandomNormal", (50, 40), mean=1.0, scale=2.0)
    good = RNG.normal(1.0, 2.0, (50, 40)).astype(np.float32)
    assert judge(case, good)["status"] == "pass"
    assert "normal tail" in judge(case, (good + 0.5).astype(np.float32))["reason"]
    assert "Laurent-Massart" in judge(case, ((good - 1) * 1.5 + 1).astype(np.float32))["reason"]
    small = sampled_case("RandomNormal", (10, 10), mean=1.0, scale=2.0)
    assert judge(small, np.full((10, 10), 40.0, np.float32))["status"] == "pass"  # too few values for moments


@pytest.mark.parametrize("n", [1000, 10 ** 5])
def test_the_moment_thresholds_have_the_stated_false_alarm_rate(n: int) -> None:
    """P(|Z| > 6.109) = 1e-9; Hoeffding's and Laurent-Massart's thresholds at p = 1e-9 as the module states."""
    assert math.erfc(drawn.NORMAL_Z / math.sqrt(2)) == pytest.approx(1e-9, rel=0.02)
    t = math.log(2 / drawn.FALSE_ALARM)
    assert 2 * math.exp(-2 * n * (math.sqrt(t / (2 * n))) ** 2) == pytest.approx(drawn.FALSE_ALARM)
    # a sample exactly at the bound passes, one beyond fails
    rule = drawn.Sampled("uniform", {"low": 0.0, "high": 1.0})
    assert rule.moments(np.full(n, 0.5 + 0.999 * math.sqrt(t / (2 * n)))) == ""
    assert rule.moments(np.full(n, 0.5 + 1.001 * math.sqrt(t / (2 * n)))) != ""
