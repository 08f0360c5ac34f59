"""OpenVINO MOE-16 and BevPoolV2-1 against loops written from their texts (MOE's routing pseudo-code and the stated
reading of its experts, BevPoolV2's formula, scalar by scalar), a float32 computation of the same formulas within
each op's accumulation bound, and planted factor-2 mutations that the loops catch."""

from __future__ import annotations

import math

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation
from conformance_reference import openvino_moe as moe_module

U32 = 2.0 ** -24


def _softmax_loop(logits: list[float]) -> list[float]:
    if not logits:
        return []
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    return [e / total for e in exps]


def _within_bound(op: str, version: int, inputs: list[np.ndarray], attributes: dict, got: np.ndarray,
                  output: int = 0) -> bool:
    """|got - reference| <= (K + 2)·u·magnitude + 1 ulp at float32 (docs/tolerance.md's accumulation bound)."""
    k = reference.window_elements("openvino", op, version, [x.shape for x in inputs], attributes,
                                  {i: x for i, x in enumerate(inputs)})
    want = reference.evaluate("openvino", op, version, inputs, attributes).outputs  # within half an ulp of exact
    scale = reference.magnitude("openvino", op, version, inputs, attributes)[output]
    bound = (k + 2) * U32 * np.asarray(scale) + np.spacing(np.abs(want[output]).astype(np.float32))
    return bool((np.abs(got.astype(np.float64) - want[output]) <= bound).all())


# ---------------------------------------------------------------- MOE-16

def _moe_loop(x, logits, fc1, b1, fc2, b2, fc3, b3, topk, normalized, silu_factor=1.0):
    out = np.zeros(x.shape)
    for t in range(x.shape[0]):
        probs = _softmax_loop([float(z) for z in logits[t]])
        chosen: list[int] = []
        for _ in range(topk):
            best = max((e for e in range(len(probs)) if e not in chosen), key=lambda e: probs[e])
            chosen.append(best)
        weights = [probs[e] for e in chosen]
        if normalized:
            total = sum(weights)
            weights = [w / total for w in weights]
        for w, e in zip(weights, chosen):
            mid = []
            for i in range(fc1.shape[1]):
                a = sum(float(fc1[e, i, j]) * float(x[t, j]) for j in range(x.shape[1])) + float(b1[e, i])
                u = sum(float(fc3[e, i, j]) * float(x[t, j]) for j in range(x.shape[1])) + float(b3[e, i])
                mid.append(silu_factor * a / (1 + math.exp(-a)) * u)
            for o in range(x.shape[1]):
                out[t, o] += w * (sum(float(fc2[e, o, i]) * mid[i] for i in range(len(mid))) + float(b2[e, o]))
    return out


def _moe_inputs(seed, batch, hidden, inter, experts, dtype=np.float64):
    rng = np.random.default_rng(seed)
    shapes = ((batch, hidden), (batch, experts), (experts, inter, hidden), (experts, inter), (experts, hidden, inter),
              (experts, hidden), (experts, inter, hidden), (experts, inter))
    return [(rng.normal(size=s) * (1 if i < 2 else 0.5)).astype(dtype) for i, s in enumerate(shapes)]


ATTRS = {"topk": 2, "expert_num": 4, "router_mode": "normalized", "expert_mode": "Silu3GEMM", "fused_experts": False}


@pytest.mark.parametrize(("mode", "topk", "experts"), [("normalized", 2, 4), ("standard", 2, 4), ("normalized", 1, 3),
                                                       ("standard", 3, 3)])
def test_moe_matches_the_routing_and_expert_loops(mode, topk, experts) -> None:
    inputs = _moe_inputs(21 + topk, 3, 6, 5, experts)
    attrs = ATTRS | {"router_mode": mode, "topk": topk, "expert_num": experts}
    got = reference.evaluate("openvino", "MOE", 16, inputs, attrs).outputs[0]
    assert np.allclose(got, _moe_loop(*inputs, topk, mode == "normalized"), rtol=1e-12, atol=1e-12)
    doubled = _moe_loop(*inputs, topk, mode == "normalized", silu_factor=2.0)
    assert not np.allclose(got, doubled, rtol=1e-6)


def test_moe_modes_without_a_formula_are_unspecified_and_ties_masked() -> None:
    inputs = _moe_inputs(25, 2, 4, 4, 4)
    for extra in ({"router_mode": "sparse_mixer"}, {"router_mode": "none"}, {"expert_mode": "SwiGLU2GEMM"}):
        assert reference.evaluate("openvino", "MOE", 16, inputs, ATTRS | extra).unspecified[0].all()
    inputs[1][0] = [1.0, 0.5, 0.5, -1.0]  # token 0: the 2nd and 3rd probabilities tie
    mask = reference.evaluate("openvino", "MOE", 16, inputs, ATTRS).unspecified[0]
    assert mask[0].all() and not mask[1].any()
    weights, chosen, _ = moe_module.routing(np.array([[2.0, 1.0, 0.0]]), 2, True)
    assert chosen.tolist() == [[0, 1]] and math.isclose(weights.sum(), 1.0)


def test_moe_float32_loop_lies_within_the_bound() -> None:
    inputs = _moe_inputs(26, 4, 16, 12, 4, dtype=np.float32)
    f = np.float32
    x, logits, fc1, b1, fc2, b2, fc3, b3 = inputs
    got = np.zeros_like(x)
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = z / z.sum(axis=1, keepdims=True)
    for t in range(x.shape[0]):
        chosen = np.argsort(-probs[t], kind="stable")[:2]
        weights = probs[t, chosen] / probs[t, chosen].sum()
        for w, e in zip(weights, chosen):
            a, u = fc1[e] @ x[t] + b1[e], fc3[e] @ x[t] + b3[e]
            got[t] += w * (fc2[e] @ (a / (f(1) + np.exp(-a)) * u) + b2[e])
    assert got.dtype == np.float32
    assert _within_bound("MOE", 16, inputs, ATTRS, got)
    assert not _within_bound("MOE", 16, inputs, ATTRS, got * np.float32(1.001))


def test_moe_refuses_what_the_text_forbids() -> None:
    inputs = _moe_inputs(27, 2, 4, 4, 2)
    for attrs, given in ((ATTRS | {"topk": 3, "expert_num": 2}, inputs), (ATTRS | {"expert_num": 2}, inputs[:6]),
                         ({k: v for k, v in ATTRS.items() if k != "expert_num"}, inputs)):
        with pytest.raises(SpecViolation):
            reference.evaluate("openvino", "MOE", 16, given, attrs)


# ---------------------------------------------------------------- BevPoolV2-1

SMALL = {"input_channels": 3, "output_channels": 3, "image_width": 2, "image_height": 2, "feature_width": 3,
         "feature_height": 2, **{f"{a}_bound_{p}": v for a in "xyz" for p, v in (("min", -1.0), ("max", 1.0),
                                                                                   ("step", 0.5))},
         "d_bound_min": 1.0, "d_bound_max": 2.0, "d_bound_step": 0.5}


def _bev_loop(cf, dw, idx, itv, attrs, dw_factor=1.0):
    """out[b, c, h, w] = Σ_{i=start}^{end-1} cf[cam(idx[i]), feat(idx[i]), c] · dw[idx[i]], the cell at bev_offset."""
    depth = math.floor((attrs["d_bound_max"] - attrs["d_bound_min"]) / attrs["d_bound_step"])
    hw = attrs["image_height"] * attrs["image_width"]
    plane = attrs["feature_height"] * attrs["feature_width"]
    out = np.zeros((cf.shape[0], attrs["output_channels"], attrs["feature_height"], attrs["feature_width"]))
    rows = np.asarray(itv).reshape(-1, 3)
    for start, end, offset in rows:
        b, cell = divmod(int(offset), plane)
        h, w = divmod(cell, attrs["feature_width"])
        for c in range(attrs["output_channels"]):
            for i in range(int(start), int(end)):
                k = int(idx[i])
                cam, feat = k // (depth * hw), k % hw
                out[b, c, h, w] += float(cf[cam, feat // attrs["image_width"], feat % attrs["image_width"], c]) \
                    * float(dw.reshape(-1)[k]) * dw_factor
    return out


def _bev_inputs(seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    cf, dw = rng.normal(size=(2, 2, 2, 3)).astype(dtype), rng.normal(size=(16,)).astype(dtype)
    idx = np.array([0, 9, 15, 3, 8, 12], np.int32)
    itv = np.array([[0, 3, 0], [3, 5, 7], [5, 6, 0], [6, 6, 11]], np.int32)  # cell 0 twice, an empty interval
    return [cf, dw, idx, itv]


def test_bev_pool_matches_the_formula_loop_in_both_itv_layouts() -> None:
    cf, dw, idx, itv = _bev_inputs(31, dtype=np.float32)
    want = _bev_loop(cf, dw, idx, itv, SMALL)
    for table in (itv, itv.reshape(-1)):
        got = reference.evaluate("openvino", "BevPoolV2", 1, [cf, dw, idx, table], SMALL).outputs[0]
        assert got.shape == (2, 3, 2, 3) and np.allclose(got, want, rtol=1e-6, atol=1e-6)
    assert not np.allclose(want, _bev_loop(cf, dw, idx, itv, SMALL, dw_factor=2.0))
    assert reference.window_elements("openvino", "BevPoolV2", 1, [x.shape for x in (cf, dw, idx, itv)], SMALL,
                                      {3: itv}) == 4  # cell 0: 3 + 1 terms


def test_bev_pool_float32_loop_lies_within_the_bound() -> None:
    inputs = _bev_inputs(32, dtype=np.float32)
    cf, dw, idx, itv = inputs
    got = np.zeros((2, 3, 2, 3), np.float32)
    for start, end, offset in itv:
        b, cell = divmod(int(offset), 6)
        for i in range(start, end):
            k = int(idx[i])
            got[b, :, cell // 3, cell % 3] += cf[k // 8, (k % 4) // 2, k % 2] * dw[k]
    assert _within_bound("BevPoolV2", 1, inputs, SMALL, got)
    assert not _within_bound("BevPoolV2", 1, inputs, SMALL, got * np.float32(1.001))


@pytest.mark.parametrize("change", [{"output_channels": 4}, {"d_bound_step": 0.0}, {"image_width": 3}])
def test_bev_pool_refuses_what_the_text_forbids(change) -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "BevPoolV2", 1, _bev_inputs(33), SMALL | change)
    bad = _bev_inputs(33)
    bad[2][0] = 16  # past dw
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "BevPoolV2", 1, bad, SMALL)
