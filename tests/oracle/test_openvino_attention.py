"""OpenVINO ScaledDotProductAttention-13 (reference/openvino_scaled_dot_product_attention.py) against loops written
from the page's pseudo-code, one query row and one key at a time; its error bound against float32 and float16 loops;
planted errors (the scale squared, the causal diagonal moved by one, a mask's sign, K) each caught."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conformance_reference import openvino_scaled_dot_product_attention as sdpa
from conformance_reference._errors import SpecViolation


def attention_loop(q, k, v, mask=None, scale=None, causal=False, t=float, diagonal=1):
    """Per batch element and query row i: scores_j = Σ_e q_ie·k_je·scale + bias_ij, bias -inf for j >= i + diagonal
    when causal, else -inf where a boolean mask is false or the T mask added; w = e^(s - max)/Σ e^(s - max);
    out_i = Σ_j w_j·v_j. Batch axes broadcast; every operation rounded to ``t``."""
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    length, source, e, ev = q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1]
    s = t(1 / math.sqrt(e)) if scale is None else t(scale)
    out = np.zeros((*batch, length, ev))
    qb, kb, vb = (np.broadcast_to(a, (*batch, *a.shape[-2:])) for a in (q, k, v))
    mb = None if mask is None or np.ndim(mask) == 0 else np.broadcast_to(mask, (*batch, length, source))
    for idx in np.ndindex(*batch):
        for i in range(length):
            scores = []
            for j in range(source):
                acc = t(0)
                for m in range(e):
                    acc = t(acc + t(t(qb[idx][i, m]) * t(kb[idx][j, m])))
                score = t(acc * s)
                if causal:
                    score = -math.inf if j >= i + diagonal else score
                elif mb is not None and mb.dtype == np.bool_:
                    score = score if mb[idx][i, j] else -math.inf
                elif mb is not None:
                    score = t(score + t(mb[idx][i, j]))
                scores.append(score)
            top = max(scores)
            w = [t(math.exp(float(t(x - top)))) if x != -math.inf else t(0) for x in scores]
            total = t(0)
            for x in w:
                total = t(total + x)
            w = [t(x / total) for x in w]
            for c in range(ev):
                acc = t(0)
                for j in range(source):
                    acc = t(acc + t(w[j] * t(vb[idx][j, c])))
                out[idx][i, c] = acc
    return out


def _draw(seed, qs, ks, vs, scale=1.0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-scale, scale, qs), rng.uniform(-scale, scale, ks), rng.uniform(-1, 1, vs)


def _run(q, k, v, mask=None, scale=None, causal=False):
    inputs = [q, k, v] + ([np.asarray(mask)] if mask is not None or scale is not None else []) + (
        [np.asarray(scale)] if scale is not None else [])
    if scale is not None and mask is None:
        inputs[3] = np.zeros((), dtype=q.dtype)
    return sdpa.evaluate(13, inputs, {"causal": causal})[0][0]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shape", [((2, 4, 6), (2, 5, 6), (2, 5, 3)), ((2, 5, 6), (2, 4, 6), (2, 4, 3))])
def test_no_mask_and_causal_are_the_pseudo_code(causal, shape) -> None:
    q, k, v = _draw(1, *shape)
    np.testing.assert_allclose(_run(q, k, v, causal=causal), attention_loop(q, k, v, causal=causal), rtol=1e-12,
                               atol=1e-14)


def test_masks_and_scale_are_the_pseudo_code() -> None:
    q, k, v = _draw(2, (2, 3, 4, 6), (1, 3, 5, 6), (2, 1, 5, 3))  # batch axes broadcast
    rng = np.random.default_rng(3)
    additive = rng.uniform(-3, 0, (3, 1, 5))
    boolean = rng.random((4, 5)) > 0.4
    boolean[:, 0] = True  # every row keeps a key
    for mask in (additive, boolean, np.zeros(())):
        np.testing.assert_allclose(_run(q, k, v, mask=mask), attention_loop(q, k, v, mask=mask), rtol=1e-12,
                                   atol=1e-14)
    np.testing.assert_allclose(_run(q, k, v, mask=additive, scale=np.array([0.3])),
                               attention_loop(q, k, v, mask=additive, scale=0.3), rtol=1e-12, atol=1e-14)
    # causal ignores the mask
    np.testing.assert_allclose(_run(q, k, v, mask=additive, causal=True), attention_loop(q, k, v, causal=True),
                               rtol=1e-12, atol=1e-14)


def test_a_row_masked_whole_is_unspecified() -> None:
    q, k, v = _draw(4, (1, 2, 4), (1, 3, 4), (1, 3, 2))
    mask = np.array([[True, False, True], [False, False, False]])
    outs, masks = sdpa.evaluate(13, [q, k, v, mask], {"causal": False})
    assert masks[0].tolist() == [[[False, False], [True, True]]]


@pytest.mark.parametrize("t, u", [(np.float32, 2.0 ** -24), (np.float16, 2.0 ** -11)])
@pytest.mark.parametrize("spread", [1.0, 3.0])
def test_the_bound_holds_and_is_tight(t, u, spread) -> None:
    """E 16, S 12: a loop in ``t`` stays within (S + 2)·u·magnitude + 1 ulp and makes at least 1/64 of it."""
    q, k, v = (a.astype(t).astype(np.float64) for a in _draw(5, (2, 6, 16), (2, 12, 16), (2, 12, 5), spread))
    rng = np.random.default_rng(6)
    mask = rng.uniform(-3, 0, (2, 6, 12)).astype(t).astype(np.float64)
    exact = _run(q, k, v, mask=mask)
    mag = sdpa.magnitude(13, [q, k, v, mask], {"causal": False})[0]
    assert sdpa.window_elements(13, [q.shape, k.shape, v.shape, mask.shape], {"causal": False}) == 12
    bound = 14 * u * mag + np.spacing(np.abs(exact).astype(t)).astype(np.float64)
    err = np.abs(attention_loop(q, k, v, mask=mask, t=t) - exact)
    assert (err <= bound).all(), (err / bound).max()
    assert (err / bound).max() > 1 / 64, (err / bound).max()


# ---- planted errors

def test_planted_scale_is_caught() -> None:
    """1/E for 1/sqrt(E) (the scale squared): a factor-4 change at E = 16."""
    q, k, v = _draw(7, (2, 4, 16), (2, 5, 16), (2, 5, 3))
    assert not np.allclose(_run(q, k, v), attention_loop(q, k, v, scale=1 / 16), rtol=1e-6)
    np.testing.assert_allclose(_run(q, k, v), attention_loop(q, k, v, scale=0.25), rtol=1e-12, atol=1e-14)


def test_planted_causal_diagonal_is_caught() -> None:
    """triu(k=0) (the diagonal masked too) or k=2 differ from the text's k=1."""
    q, k, v = _draw(8, (2, 4, 6), (2, 4, 6), (2, 4, 3))
    got = _run(q, k, v, causal=True)
    for diagonal in (0, 2):
        with np.errstate(all="ignore"):
            other = attention_loop(q, k, v, causal=True, diagonal=diagonal) if diagonal else None
        if other is not None:
            assert not np.allclose(got, other, rtol=1e-6)
    first_row = attention_loop(q, k, v, causal=True)[:, 0]
    np.testing.assert_allclose(got[:, 0], v[:, 0].repeat(1, 0), rtol=1e-12)  # row 0 sees key 0 alone
    np.testing.assert_allclose(got[:, 0], first_row, rtol=1e-12)


def test_planted_boolean_mask_sign_is_caught() -> None:
    """-inf where the mask is true (the negation left out) differs."""
    q, k, v = _draw(9, (1, 3, 4), (1, 4, 4), (1, 4, 2))
    mask = np.array([[True, False, True, True], [False, True, True, False], [True, True, False, True]])
    assert not np.allclose(_run(q, k, v, mask=mask), attention_loop(q, k, v, mask=~mask), rtol=1e-6)


def test_planted_factor_two_in_k_is_caught() -> None:
    """The magnitude pinned on one case by hand: E = 1, S = 2, q = 1, k = [1, 1], v = [2, 4]: weights [1/2, 1/2],
    y = 3, each score's error (1 + 2)·1·1 + 3·1 + 1 + 0 = 7, moved Σ p·7·|v − 3| = 7, Σ p·|v| = 3, so
    magnitude = (7 + (2 + 14 + 2 + 2)·3)/(2 + 2) = 67/4; K = 2 (a doubled K: (7 + (4 + 14 + 4 + 2)·3)/6)."""
    q, k, v = np.ones((1, 1, 1)), np.ones((1, 2, 1)), np.array([[[2.0], [4.0]]])
    assert sdpa.magnitude(13, [q, k, v], {"causal": False})[0][0, 0, 0] == pytest.approx(67 / 4)
    assert sdpa.window_elements(13, [(1, 1, 1), (1, 2, 1), (1, 2, 1)], {"causal": False}) == 2


@pytest.mark.parametrize("shapes, attrs", [
    ([(4, 8), (6, 8), (6, 5)], {"causal": False}),
    ([(2, 4, 8), (2, 6, 7), (2, 6, 5)], {"causal": False}),
    ([(2, 4, 8), (2, 6, 8), (2, 5, 5)], {"causal": False}),
    ([(2, 4, 8), (2, 6, 8), (2, 6, 5), (2, 4, 5)], {"causal": False}),
    ([(2, 4, 8), (2, 6, 8), (2, 6, 5)], {}),
    ([(2, 4, 8), (2, 6, 8), (2, 6, 5), (), (2,)], {"causal": False}),
])
def test_what_the_text_refuses(shapes, attrs) -> None:
    with pytest.raises(SpecViolation):
        sdpa.output_shapes(13, shapes, attrs)


def test_a_nonzero_scalar_mask_is_refused() -> None:
    q, k, v = _draw(10, (1, 2, 4), (1, 3, 4), (1, 3, 2))
    with pytest.raises(SpecViolation):
        sdpa.evaluate(13, [q, k, v, np.array(1.0)], {"causal": False})
