"""Shared pieces of OpenVINO's sparse attentions (QwenSparseAttention-17, BlockSparseAttention-17): scaled
dot-product attention of every query over the key positions a boolean ``allowed[B, H, L, S]`` selects, in the wide
type, with the error bound ScaledDotProductAttention-13 uses (reference/openvino_scaled_dot_product_attention.py):
K = S, the scores' error (E + 2)·|scale|·Σ|q·k| + the scale's and the max subtraction's roundings carried through
the softmax, plus its exp, sum and division and the last product's (S + 2)·Σ p·|v|. A query with no allowed key has
the value the caller gives it (BlockSparseAttention: "empty input -> all-zero output row").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._pnorm import work_dtype


def attend(q: np.ndarray, k: np.ndarray, v: np.ndarray, counts: np.ndarray, scale: Any
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(output, rows without an allowed key, magnitude) of softmax(q·k^T·scale over the allowed keys)·v; q [B, H, L,
    E], k and v already one head per query head [B, H, S, E|Ev], ``counts`` [B, H, L, S] how many times each key is
    in a query's list (0: not allowed; BlockSparseAttention's pseudo-code lists a block named twice twice)."""
    allowed = counts > 0
    wide = work_dtype(q.dtype)
    q, k, v = (np.asarray(a).astype(wide) for a in (q, k, v))
    scale = np.asarray(scale).astype(wide).reshape(())
    source = k.shape[-2]
    with np.errstate(all="ignore"):
        qk = np.matmul(q, np.swapaxes(k, -1, -2))
        terms = np.matmul(np.abs(q), np.swapaxes(np.abs(k), -1, -2))
        scores = np.where(allowed, qk * scale, -np.inf)
        top = np.max(scores, axis=-1, keepdims=True)
        dead = np.isneginf(top)[..., 0]
        weights = np.where(allowed, counts * np.exp(scores - np.where(np.isfinite(top), top, 0)), 0)
        total = np.sum(weights, axis=-1, keepdims=True)
        weights = np.where(total > 0, weights / np.where(total > 0, total, 1), 0)
        out = np.matmul(weights, v)
        spread = np.matmul(weights, np.abs(v))
        error = (q.shape[-1] + 2) * abs(scale) * terms + 3 * np.abs(qk * scale) + np.abs(scores - top)
        error = np.where(allowed & np.isfinite(scores), error, 0)
        moved = np.einsum("...is,...isc->...ic", weights * error,
                          np.abs(v[..., None, :, :] - out[..., :, None, :]))
    magnitude = (moved + (2 * source + 16) * spread) / (source + 2)
    return out, dead, np.nan_to_num(magnitude.astype(np.float64))
