"""The ``propagate`` family (ops/propagate.py, ops/propagation_rules.py): the error of a composition's arithmetic
carried node by node through its function body. The bound of a composition is pinned against its hand derivation
(a factor of 2 either way fails), a result within it passes, and a planted bug fails."""

from __future__ import annotations

import math

import numpy as np
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator
from whole_model import allowed, graph_case, judge, node_case

from conformance.dtypes import ulp
from conformance.ops import propagate
from conformance.ops.families import ULPS, family_of

RNG = np.random.default_rng(46)
U32 = 2.0 ** -24


def reference(case, **feeds) -> list[np.ndarray]:
    import onnx

    return [np.asarray(v) for v in ReferenceEvaluator(onnx.load_from_string(case.model)).run(None, feeds)]


def test_the_compositions_are_propagated() -> None:
    for op in ("LayerNormalization", "Attention", "SoftmaxCrossEntropyLoss", "LogSoftmax", "ReduceLogSumExp",
               "BatchNormalization", "Resize", "GRU", "If", "Scan"):
        assert family_of(op).name == "propagate", op


def test_reduce_log_sum_bound_is_the_sums_error_through_log_plus_logs_ulps() -> None:
    """ReduceLogSum's body: ReduceSum (K terms: (K+2)·u·Σ|x|), then Log (the error over s, and log's 3 ULPs);
    the runtime and the stored value each within it: 2e + 1 ulp."""
    x = RNG.uniform(1, 2, (1, 1000)).astype(np.float32)
    y = np.log(x.astype(np.float64).sum(axis=1, keepdims=True)).astype(np.float32)
    case = node_case("ReduceLogSum", {"x": x, "axes": np.array([1], np.int64)}, {"y": y})
    s = x.astype(np.float64).sum()
    e = (1000 + 2) * U32 * s / s + ULPS["Log"] * ulp(np.float64(y[0, 0]), "float32")
    bound = 2 * e + ulp(np.float64(y[0, 0]), "float32")
    assert allowed(case)[0][0, 0] == pytest.approx(bound, rel=1e-6)
    assert judge(case, (y + np.float32(0.9 * bound)).astype(np.float32))["status"] == "pass"
    assert judge(case, (y + np.float32(1.1 * bound)).astype(np.float32))["status"] == "fail"
    judged = judge(case, y)
    assert judged["tolerance"].startswith("(2*e(y) + 1ulp), e(y) the first-order error")


def test_layer_normalization_a_float32_runtime_passes_a_planted_error_fails() -> None:
    x = RNG.standard_normal((4, 96)).astype(np.float32)
    scale, bias = RNG.standard_normal(96).astype(np.float32), RNG.standard_normal(96).astype(np.float32)
    case = node_case("LayerNormalization", {"x": x, "scale": scale, "bias": bias}, {"y": np.zeros_like(x)},
                     opset=17)
    y = reference(case, x=x, scale=scale, bias=bias)[0]
    case = node_case("LayerNormalization", {"x": x, "scale": scale, "bias": bias}, {"y": y}, opset=17)
    # a runtime in float32 with another variance formula (two-pass) and order
    mean = x.mean(axis=1, keepdims=True, dtype=np.float32)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True, dtype=np.float32)
    runtime = ((x - mean) / np.sqrt(var + np.float32(1e-5)) * scale + bias).astype(np.float32)
    assert judge(case, runtime)["status"] == "pass"
    for at in [(0, 0), (1, 17), (3, 95)]:
        planted = runtime.copy()
        planted[at] *= np.float32(1 + 5e-4)
        assert judge(case, planted)["status"] == "fail", at


def test_data_movement_in_a_body_stays_exact() -> None:
    """Attention's present_key is past_key concatenated with K: no rounding reaches it, a 1-ulp change fails."""
    q = RNG.standard_normal((1, 2, 3, 4)).astype(np.float32)
    k = RNG.standard_normal((1, 2, 5, 4)).astype(np.float32)
    v = RNG.standard_normal((1, 2, 5, 4)).astype(np.float32)
    past_k = RNG.standard_normal((1, 2, 2, 4)).astype(np.float32)
    past_v = RNG.standard_normal((1, 2, 2, 4)).astype(np.float32)
    inputs = {"q": q, "k": k, "v": v, "m": np.zeros((3, 7), np.float32), "pk": past_k, "pv": past_v}
    outputs = {"y": np.zeros((1, 2, 3, 4), np.float32), "present_key": np.zeros((1, 2, 7, 4), np.float32),
               "present_value": np.zeros((1, 2, 7, 4), np.float32)}
    stored = reference(node_case("Attention", inputs, outputs, opset=23), **inputs)
    case = node_case("Attention", inputs, dict(zip(outputs, stored)), opset=23)
    assert judge(case, *stored)["status"] == "pass"
    judged = judge(case, *stored)
    assert "present_key: exact" in judged["tolerance"] and "y: (2*e(y)" in judged["tolerance"]
    moved = stored[1].copy()
    moved[0, 1, 6, 3] = np.nextafter(moved[0, 1, 6, 3], np.float32(np.inf))
    assert judge(case, stored[0], moved, stored[2])["status"] == "fail"
    planted = stored[0].copy()
    planted[0, 1, 2, 0] *= np.float32(1 + 5e-4)
    assert judge(case, planted, stored[1], stored[2])["status"] == "fail"


def test_a_wider_type_inside_a_function_body_does_not_tighten_the_bound() -> None:
    """ReduceLogSumExp's body computes in float64; a float32 runtime may compute in float32: each result of the
    body is rounded to at least float32, so the bound is float32's, not float64's."""
    x = RNG.standard_normal((2, 50)).astype(np.float32)
    y = np.log(np.exp(x.astype(np.float64)).sum(axis=1, keepdims=True)).astype(np.float32)
    case = node_case("ReduceLogSumExp", {"x": x, "axes": np.array([1], np.int64)}, {"y": y})
    bound = allowed(case)[0]
    assert (bound > 50 * U32).all()  # (K + 2)·u with u float32's, not float64's 1e-16
    runtime = (np.log(np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True, dtype=np.float32))
               + x.max(1, keepdims=True)).astype(np.float32)
    assert judge(case, runtime)["status"] == "pass"


def test_multilinear_rule_counts_the_terms_and_adds_a_bias_as_it_is() -> None:
    """Conv with a bias: K per element is the op on ones (taps meeting the input + 1), the rounding term
    (K + 2)·u·(the op on |x|, |w|, |b|); pinned at an interior and a corner element."""
    x = RNG.uniform(1, 2, (1, 1, 5, 5)).astype(np.float32)
    w = RNG.uniform(1, 2, (1, 1, 3, 3)).astype(np.float32)
    b = np.array([0.5], np.float32)
    model = helper.make_model(helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])], "g",
        [helper.make_tensor_value_info(n, 1, None) for n in "xwb"], [helper.make_tensor_value_info("y", 1, None)]),
        opset_imports=[helper.make_opsetid("", 18)])
    e = propagate.errors(model, {"x": x, "w": w, "b": b})[0]
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    interior = (x64[0, 0, 1:4, 1:4] * w64[0, 0]).sum() + 0.5
    corner = (x64[0, 0, :2, :2] * w64[0, 0, 1:, 1:]).sum() + 0.5
    assert e[0, 0, 2, 2] == pytest.approx((9 + 1 + 2) * U32 * interior, rel=1e-9)
    assert e[0, 0, 0, 0] == pytest.approx((4 + 1 + 2) * U32 * corner, rel=1e-9)


def test_elementwise_rules() -> None:
    """Add: the errors summed and half an ULP; Sqrt: e/(2√x) but never more than √e; a narrowing Cast: one more
    rounding."""
    x = np.array([4.0, 1e-30, 2.0], np.float32)
    nodes = [helper.make_node("Add", ["x", "x"], ["a"]), helper.make_node("Sqrt", ["a"], ["s"]),
             helper.make_node("Cast", ["s"], ["h"], to=10)]
    model = helper.make_model(helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", 1, None)],
        [helper.make_tensor_value_info(n, 0, None) for n in ("a", "s", "h")]),
        opset_imports=[helper.make_opsetid("", 18)])
    e_a, e_s, e_h = propagate.errors(model, {"x": x})
    a = 2 * x.astype(np.float64)
    assert e_a == pytest.approx(0.5 * ulp(a, "float32"))
    s = np.sqrt(a)
    carried = np.minimum(e_a / (2 * s), np.sqrt(e_a))
    assert e_s == pytest.approx(carried + ULPS["Sqrt"] * ulp(s, "float32"))
    assert e_h == pytest.approx(e_s + 0.5 * ulp(s.astype(np.float16).astype(np.float64), "float16"))


def test_control_flow_takes_the_branch_and_unrolls_the_scan() -> None:
    x = RNG.uniform(1, 2, (5, 3)).astype(np.float32)
    then = helper.make_graph([helper.make_node("Exp", ["x"], ["t"])], "then", [],
                             [helper.make_tensor_value_info("t", 1, None)])
    other = helper.make_graph([helper.make_node("Identity", ["x"], ["o"])], "else", [],
                              [helper.make_tensor_value_info("o", 1, None)])
    nodes = [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)]
    cases = {flag: graph_case(nodes, {"c": np.array(flag), "x": x}, {"y": np.exp(x) if flag else x}, "If")
             for flag in (True, False)}
    assert allowed(cases[True])[0] == pytest.approx(2 * (ULPS["Exp"] * ulp(np.exp(x.astype(np.float64)),
                                                                          "float32")) + ulp(np.exp(x), "float32"))
    assert judge(cases[False], x)["tolerance"].startswith("exact")
    info = [helper.make_tensor_value_info(n, 1, None) for n in ("s", "v", "s2", "o")]
    body = helper.make_graph([helper.make_node("Add", ["s", "v"], ["s2"]), helper.make_node("Identity", ["s2"], ["o"])],
                             "body", info[:2], info[2:])
    scan = helper.make_node("Scan", ["s0", "x"], ["total", "partial"], body=body, num_scan_inputs=1)
    s0 = np.zeros(3, np.float32)
    total = x.sum(0, dtype=np.float32)
    case = graph_case([scan], {"s0": s0, "x": x}, {"total": total, "partial": np.cumsum(x, 0, dtype=np.float32)},
                      "Scan")
    bounds = allowed(case)
    # each step adds half an ULP of its partial sum: the last partial's bound is the sum of all of them
    partials = np.cumsum(x.astype(np.float64), 0)
    assert bounds[0] == pytest.approx(2 * (0.5 * ulp(partials, "float32")).sum(0) + ulp(total, "float32"))


def test_where_the_walk_stops_the_fallback_is_stated() -> None:
    """A body with an op that has no rule and no function (Hardmax): the loosest other node's family, said."""
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    then = helper.make_graph([helper.make_node("Hardmax", ["x"], ["t"])], "then", [],
                             [helper.make_tensor_value_info("t", 1, None)])
    nodes = [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=then)]
    expected = (x == x.max(1, keepdims=True)).astype(np.float32)
    judged = judge(graph_case(nodes, {"c": np.array(True), "x": x}, {"y": expected}, "If"), expected)
    assert judged["status"] == "pass"
    assert "fallback: cannot propagate through the model (no error rule and no function body for ai.onnx::" \
           "Hardmax)" in judged["tolerance"]
    assert judged["tolerance"].startswith("exact")


def test_the_magnitude_floor_is_zero_not_the_output() -> None:
    """The comparison first tries a floor of the magnitude; the propagated error is far below |y|, so its floor is
    0: a 1e-3 error on a LayerNorm output near 2 cannot pass on |y| - ulp."""
    x = RNG.standard_normal((1, 64)).astype(np.float32)
    ones, zeros = np.ones(64, np.float32), np.zeros(64, np.float32)
    inputs = {"x": x, "scale": ones, "bias": zeros}
    y = reference(node_case("LayerNormalization", inputs, {"y": x}, opset=17), **inputs)[0]
    case = node_case("LayerNormalization", inputs, {"y": y}, opset=17)
    planted = y.copy()
    planted[0, int(np.argmax(np.abs(y)))] *= np.float32(1 + 1e-3)
    assert judge(case, planted)["status"] == "fail"
    assert math.isfinite(float(allowed(case)[0].max()))
