"""OpenVINO QwenSparseAttention-17 and BlockSparseAttention-17 against loops written from their texts (the pages'
pseudo-code, scalar by scalar), a float32 computation of the same formulas within each op's accumulation bound, the
properties the pages state, and planted factor-2 / off-by-one mutations that the loops catch (MOE-16 and
BevPoolV2-1: test_openvino_moe_bev_pool.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation
from conformance_reference import openvino_block_sparse_attention as bsa_module
from conformance_reference import openvino_qwen_sparse_attention as qsa_module

U32 = 2.0 ** -24


def _attention32(q, k, v, counts, scale) -> np.ndarray:
    """The attention in float32 arithmetic throughout (what an f32 kernel computes)."""
    f = np.float32
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) * f(scale)
    scores = np.where(counts > 0, scores, f(-np.inf))
    top = scores.max(axis=-1, keepdims=True)
    exps = np.where(counts > 0, counts.astype(f) * np.exp(scores - np.where(np.isfinite(top), top, f(0))), f(0))
    total = exps.sum(axis=-1, keepdims=True, dtype=f)
    weights = np.where(total > 0, exps / np.where(total > 0, total, f(1)), f(0)).astype(f)
    return np.matmul(weights, v).astype(f)


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


# ---------------------------------------------------------------- QwenSparseAttention-17

def _qsa_loop(q, k, v, iq, ikb, r, budget, scale=None):
    n_, h_, l_, e_ = q.shape
    hkv, s_ = k.shape[1], k.shape[2]
    width = budget + r - 1
    scale = 1.0 / math.sqrt(e_) if scale is None else scale
    out = np.zeros((n_, h_, l_, v.shape[3]))
    indices = np.full((n_, l_, width), -1)
    for n in range(n_):
        for l_i in range(l_):
            p = s_ - l_ + l_i
            visible = (p + 1) // r
            scores = []
            for blk in range(visible):
                total = 0.0
                for head in range(iq.shape[1]):
                    dot = sum(float(iq[n, head, l_i, d]) * float(ikb[n, blk, d]) for d in range(iq.shape[3]))
                    total += max(dot, 0.0)
                scores.append(total)
            picked: list[int] = []
            for _ in range(min(budget // r, visible)):  # the best left; equal scores: the smaller block
                best = None
                for blk in range(visible):
                    if blk not in picked and (best is None or scores[blk] > scores[best]):
                        best = blk
                picked.append(best)
            tokens = [blk * r + t for blk in picked for t in range(r)] + list(range(visible * r, p + 1))
            indices[n, l_i, :len(tokens)] = tokens
            for head in range(h_):
                kv = head // (h_ // hkv)
                logits = [sum(float(q[n, head, l_i, d]) * float(k[n, kv, t, d]) for d in range(e_)) * scale
                          for t in tokens]
                weights = _softmax_loop(logits)
                for c in range(v.shape[3]):
                    out[n, head, l_i, c] = sum(w * float(v[n, kv, t, c]) for w, t in zip(weights, tokens))
    return out, indices


def _qsa_inputs(seed, n, h, hkv, l_, s, e, ev, hi, di, r, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=shape).astype(dtype) for shape in
            ((n, h, l_, e), (n, hkv, s, e), (n, hkv, s, ev), (n, hi, l_, di), (n, s // r, di))]


@pytest.mark.parametrize(("seed", "dims", "r", "budget"), [
    (1, (2, 4, 2, 1, 21, 8, 4, 2, 4), 2, 4), (2, (1, 2, 1, 12, 12, 8, 8, 2, 4), 3, 3),
    (3, (1, 4, 4, 3, 10, 8, 8, 3, 4), 2, 4), (4, (1, 6, 2, 5, 13, 4, 3, 1, 2), 4, 8)])
def test_qwen_sparse_attention_matches_the_pseudo_code_loop(seed, dims, r, budget) -> None:
    inputs = _qsa_inputs(seed, *dims, r)
    attrs = {"compress_ratio": r, "token_budget": budget}
    got = reference.evaluate("openvino", "QwenSparseAttention", 17, inputs, attrs).outputs
    out, indices = _qsa_loop(*inputs, r, budget)
    assert got[1].dtype == np.int32 and (got[1] == indices).all()
    assert np.allclose(got[0], out, rtol=1e-12, atol=1e-12)
    with_scale = reference.evaluate("openvino", "QwenSparseAttention", 17, [*inputs, np.array(0.3)], attrs).outputs
    assert np.allclose(with_scale[0], _qsa_loop(*inputs, r, budget, scale=0.3)[0], rtol=1e-12, atol=1e-12)


def test_qwen_sparse_attention_with_every_block_is_causal_sdpa() -> None:
    """The page: when every visible block fits the budget the result is causal ScaledDotProductAttention."""
    q, k, v, iq, ikb = _qsa_inputs(5, 1, 2, 2, 8, 8, 4, 4, 1, 2, 2)
    got = reference.evaluate("openvino", "QwenSparseAttention", 17, [q, k, v, iq, ikb],
                             {"compress_ratio": 2, "token_budget": 8}).outputs[0]
    sdpa = reference.evaluate("openvino", "ScaledDotProductAttention", 13, [q, k, v], {"causal": True}).outputs[0]
    assert np.allclose(got, sdpa, rtol=1e-12, atol=1e-12)


def test_qwen_relu_ties_take_the_smaller_block_first() -> None:
    q, k, v, iq, ikb = _qsa_inputs(6, 1, 1, 1, 1, 12, 4, 4, 1, 2, 2)
    iq[:] = 1.0
    ikb[:] = -1.0  # every block scores relu(-2) = 0
    ikb[0, 4] = 1.0  # but block 4
    indices = reference.evaluate("openvino", "QwenSparseAttention", 17, [q, k, v, iq, ikb],
                                 {"compress_ratio": 2, "token_budget": 4, "index_element_type": "i64"}).outputs[1]
    assert indices.dtype == np.int64 and indices[0, 0].tolist() == [8, 9, 0, 1, -1]


def test_qwen_a_doubled_scale_and_an_off_by_one_block_fail_the_loop(monkeypatch) -> None:
    inputs = _qsa_inputs(7, 1, 2, 1, 3, 11, 4, 4, 2, 3, 2)
    attrs = {"compress_ratio": 2, "token_budget": 4}
    out, indices = _qsa_loop(*inputs, 2, 4)
    doubled = reference.evaluate("openvino", "QwenSparseAttention", 17, [*inputs, np.array(2 / math.sqrt(4))],
                                 attrs).outputs[0]
    assert not np.allclose(doubled, out, rtol=1e-6)
    real = qsa_module.selection
    monkeypatch.setattr(qsa_module, "selection", lambda iq, ikb, d: real(iq, ikb, {**d, "s": d["s"] - 1}))
    shifted = reference.evaluate("openvino", "QwenSparseAttention", 17, inputs, attrs).outputs[1]
    assert not (shifted == indices).all()


def test_qwen_float32_loop_lies_within_the_bound() -> None:
    inputs = _qsa_inputs(8, 1, 4, 2, 4, 16, 32, 8, 2, 4, 2, dtype=np.float32)
    attrs = {"compress_ratio": 2, "token_budget": 6}
    indices = reference.evaluate("openvino", "QwenSparseAttention", 17, inputs, attrs).outputs[1]
    counts = np.zeros((1, 1, 4, 16), np.int64)
    for query in range(4):
        counts[0, 0, query, indices[0, query][indices[0, query] >= 0]] = 1
    q, k, v = inputs[0], np.repeat(inputs[1], 2, axis=1), np.repeat(inputs[2], 2, axis=1)
    got = _attention32(q, k, v, np.broadcast_to(counts, (1, 4, 4, 16)), 1 / math.sqrt(32))
    assert _within_bound("QwenSparseAttention", 17, inputs, attrs, got)
    assert not _within_bound("QwenSparseAttention", 17, inputs, attrs, got * np.float32(1.001))


@pytest.mark.parametrize(("dims", "attrs"), [
    ((1, 2, 1, 1, 8, 4, 4, 1, 4), {"compress_ratio": 4, "token_budget": 6}),
    ((1, 3, 2, 1, 8, 4, 4, 1, 4), {"compress_ratio": 2, "token_budget": 2}),
    ((1, 2, 1, 5, 4, 4, 4, 1, 4), {"compress_ratio": 2, "token_budget": 2})])
def test_qwen_refuses_what_the_text_forbids(dims, attrs) -> None:
    inputs = _qsa_inputs(9, *dims, attrs["compress_ratio"])
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "QwenSparseAttention", 17, inputs, attrs)


# ---------------------------------------------------------------- BlockSparseAttention-17

def _bsa_loop(query, key, value, block_indices, mask, scale, block_size, causal):
    """The page's pseudo-code, as printed."""
    b_, h_, l_, e_ = query.shape
    hk, s_ = value.shape[1], value.shape[2]
    hb_, qblocks = block_indices.shape[1], block_indices.shape[2]
    kv_blocks = s_ // block_size
    scale = 1.0 / math.sqrt(e_) if scale is None else scale
    output = np.zeros((b_, h_, l_, value.shape[3]))
    for b in range(b_):
        for h in range(h_):
            hkv = 0 if hk == 1 else h
            hb = 0 if hb_ == 1 else h
            for qb in range(qblocks):
                selected = [blk for i, blk in enumerate(block_indices[b, hb, qb]) if mask is None or mask[b, hb, qb, i]]
                positions = [int(blk) * block_size + t for blk in selected for t in range(block_size)
                             if 0 <= blk < kv_blocks]
                for qi in range(block_size):
                    q_pos = qb * block_size + qi
                    keep = [p for p in positions if not causal or p <= q_pos]
                    logits = [sum(float(query[b, h, q_pos, d]) * float(key[b, hkv, p, d]) for d in range(e_)) * scale
                              for p in keep]
                    weights = _softmax_loop(logits)
                    for c in range(value.shape[3]):
                        output[b, h, q_pos, c] = sum(w * float(value[b, hkv, p, c]) for w, p in zip(weights, keep))
    return output


def _bsa_inputs(seed, b, h, l_, e, hk, s, ev, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=shape).astype(dtype) for shape in ((b, h, l_, e), (b, hk, s, e), (b, hk, s, ev))]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(("seed", "dims", "size", "hb", "k_blocks", "with_mask", "scale"), [
    (11, (1, 2, 4, 8, 2, 6, 8), 2, 2, 2, True, None), (12, (2, 4, 8, 6, 1, 16, 5), 4, 1, 3, False, None),
    (13, (1, 3, 6, 4, 3, 9, 4), 3, 3, 4, True, 0.7)])
def test_block_sparse_attention_matches_the_pseudo_code(causal, seed, dims, size, hb, k_blocks, with_mask,
                                                        scale) -> None:
    q, k, v = _bsa_inputs(seed, *dims)
    rng = np.random.default_rng(seed + 100)
    blocks = rng.integers(-1, dims[5] // size + 1, size=(dims[0], hb, dims[2] // size, k_blocks))  # sentinels too
    blocks[..., 0] = blocks[..., -1]  # a block named twice
    mask = rng.integers(0, 2, size=blocks.shape).astype(bool) if with_mask or scale is not None else None
    inputs = [q, k, v, blocks.astype(np.int32)] + ([mask] if mask is not None else []) + \
        ([np.array([scale])] if scale is not None else [])
    attrs = {"block_size": size, "causal": causal}
    got = reference.evaluate("openvino", "BlockSparseAttention", 17, inputs, attrs).outputs[0]
    assert np.allclose(got, _bsa_loop(q, k, v, blocks, mask, scale, size, causal), rtol=1e-12, atol=1e-12)


def test_block_sparse_rows_without_keys_are_zero_and_a_doubled_scale_fails() -> None:
    q, k, v = _bsa_inputs(14, 1, 1, 4, 4, 1, 4, 4)
    blocks = np.array([[[[1], [1]]]], np.int64)  # query block 0 lists only the later block 1: causal leaves nothing
    got = reference.evaluate("openvino", "BlockSparseAttention", 17, [q, k, v, blocks],
                             {"block_size": 2, "causal": True}).outputs[0]
    assert (got[0, 0, :2] == 0).all() and (got[0, 0, 2:] != 0).all()
    doubled = reference.evaluate("openvino", "BlockSparseAttention", 17,
                                 [q, k, v, blocks, np.ones_like(blocks, bool), np.array(1.0)], {"block_size": 2}
                                 ).outputs[0]
    assert not np.allclose(doubled, _bsa_loop(q, k, v, blocks, None, None, 2, False), rtol=1e-6)


def test_block_sparse_float32_loop_lies_within_the_bound() -> None:
    q, k, v = _bsa_inputs(15, 1, 2, 8, 32, 2, 16, 8, dtype=np.float32)
    blocks = np.array([[[[0, 1, 3], [2, 3, 1]], [[3, 3, 0], [1, 0, 2]]]], np.int32)
    attrs = {"block_size": 4}
    d = {"b": 1, "h": 2, "l": 8, "s": 16, "size": 4, "causal": False}
    got = _attention32(q, k, v, bsa_module.key_counts(blocks, None, d), 1 / math.sqrt(32))
    assert _within_bound("BlockSparseAttention", 17, [q, k, v, blocks], attrs, got)
    assert not _within_bound("BlockSparseAttention", 17, [q, k, v, blocks], attrs, got * np.float32(1.001))


def test_block_sparse_refuses_what_the_text_forbids() -> None:
    q, k, v = _bsa_inputs(16, 1, 1, 5, 4, 1, 6, 4)
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "BlockSparseAttention", 17, [q, k, v, np.zeros((1, 1, 2, 1), np.int32)],
                           {"block_size": 2})
    q, k, v = _bsa_inputs(16, 1, 4, 4, 4, 2, 4, 4)
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "BlockSparseAttention", 17, [q, k, v, np.zeros((1, 1, 2, 1), np.int32)],
                           {"block_size": 2})
