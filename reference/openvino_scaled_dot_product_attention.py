"""OpenVINO ScaledDotProductAttention-13: the page's pseudo-code. ``softmax(Q·K^T·scale + bias)·V`` over the last
two axes, the batch axes of query, key and value broadcast (numpy rules).

- ``scale``: the fifth input (a scalar or one-element 1-D tensor of T), else 1/sqrt(E);
- ``bias``: ``causal`` puts -inf above the diagonal of [L, S] (numpy.triu(k=1): column j > row i) and ignores
  ``attention_mask``; else a boolean mask puts -inf where it is false, a T mask is added; a 0-D T mask must be 0
  ("applying an attention mask is not necessary"); a mask broadcasts to [N, ..., L, S] and no further.
- A row whose every score is -inf: the pseudo-code's Softmax divides 0 by 0 (NaN); left unspecified (frameworks
  return NaN or 0), docs/spec-notes.md.

Judged by the accumulation bound, K = S (the last product's sum over the weights), its magnitude the error carried
from the scores: a score's error (E + 2)·|scale|·Σ|q·k| + 3 roundings of |score| (the scale's sqrt and division
and its product) + the bias sum and the max subtraction; the softmax moves the output by at most twice the largest
score error times Σ p·|v|, its own exp (4 ULPs), sum (S terms) and division (2.5 ULPs) by (S + 14)·Σ p·|v|, and the
last product (S + 2)·Σ p·|v|; the magnitude is that total over (S + 2).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "ScaledDotProductAttention", (13,),
    attributes=(Attribute("causal", "bool", required=True),),
    inputs=(Port("query"), Port("key"), Port("value"), Port("attention_mask", optional=True),
            Port("scale", optional=True)),
    outputs=(Port("output"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = "ScaledDotProductAttention-13"


def _shapes(shapes: list[tuple[int, ...]], attributes: dict[str, Any], mask_dtype: str | None = None
            ) -> tuple[tuple[int, ...], int, int, int, int]:
    """(batch, L, S, E, Ev); SpecViolation for what the text refuses."""
    attributes_of(SCHEMA, 13, attributes)
    if not 3 <= len(shapes) <= 5:
        raise SpecViolation(f"{LABEL} takes 3 to 5 inputs, got {len(shapes)}")
    q, k, v = (tuple(s) for s in shapes[:3])
    if min(len(q), len(k), len(v)) < 3:
        raise SpecViolation(f"{LABEL}: query, key and value are at least 3-D, got {list(q)}, {list(k)}, {list(v)}")
    if q[-1] != k[-1]:
        raise SpecViolation(f"{LABEL}: query's and key's E differ ({q[-1]}, {k[-1]})")
    if k[-2] != v[-2]:
        raise SpecViolation(f"{LABEL}: key's and value's S differ ({k[-2]}, {v[-2]})")
    try:
        batch = tuple(np.broadcast_shapes(q[:-2], k[:-2], v[:-2]))
    except ValueError:
        raise SpecViolation(f"{LABEL}: batch axes {list(q[:-2])}, {list(k[:-2])}, {list(v[:-2])} do not "
                            "broadcast") from None
    length, source = q[-2], k[-2]
    if len(shapes) > 3:
        mask = tuple(shapes[3])
        full = (*batch, length, source)
        if mask == () and mask_dtype == "bool":
            raise SpecViolation(f"{LABEL}: a boolean attention_mask is at least 2-D")
        if mask != () and len(mask) < 2:
            raise SpecViolation(f"{LABEL}: attention_mask is at least 2-D or a scalar 0, got shape {list(mask)}")
        try:
            if tuple(np.broadcast_shapes(mask, full)) != full:
                raise ValueError
        except ValueError:
            raise SpecViolation(f"{LABEL}: attention_mask {list(mask)} does not broadcast to {list(full)}") from None
    if len(shapes) > 4 and tuple(shapes[4]) not in ((), (1,)):
        raise SpecViolation(f"{LABEL}: scale is a scalar or a one-element 1-D tensor, got shape {list(shapes[4])}")
    return batch, length, source, q[-1], v[-1]


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    batch, length, _, _, ev = _shapes(input_shapes, attributes)
    return [(*batch, length, ev)]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: each output element sums S weighted values."""
    return int(_shapes(input_shapes, attributes)[2])


def _parts(inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Any]:
    """Everything the value and its bound need, in the wide type."""
    arrays = [np.asarray(a) for a in inputs]
    dtype = arrays[0].dtype
    if dtype.name not in OV_FLOATS:
        raise SpecViolation(f"{LABEL}: T is a floating-point type, got {dtype.name}")
    mask = arrays[3] if len(arrays) > 3 else None
    for i, a in enumerate(arrays):
        if a.dtype != dtype and not (i == 3 and a.dtype == np.bool_):
            raise SpecViolation(f"{LABEL}: input {i + 1} is {a.dtype.name}, T is {dtype.name}")
    batch, length, source, e, _ = _shapes([a.shape for a in arrays], attributes,
                                          None if mask is None else mask.dtype.name)
    causal = bool(attributes_of(SCHEMA, 13, attributes)["causal"])
    wide = work_dtype(dtype)
    q, k, v = (a.astype(wide) for a in arrays[:3])
    scale = arrays[4].astype(wide).reshape(()) if len(arrays) > 4 else 1 / np.sqrt(wide.type(e))
    bias = np.zeros((length, source), dtype=wide)
    if causal:
        bias = np.triu(np.full((length, source), -np.inf, dtype=wide), k=1)
    elif mask is not None and mask.dtype == np.bool_:
        bias = np.where(mask, 0, -np.inf).astype(wide)
    elif mask is not None:
        if mask.ndim == 0 and mask != 0:
            raise SpecViolation(f"{LABEL}: a 0-D attention_mask is the scalar 0, got {mask.item()!r}")
        bias = mask.astype(wide)
    with np.errstate(all="ignore"):
        qk = np.matmul(q, np.swapaxes(k, -1, -2))
        terms = np.matmul(np.abs(q), np.swapaxes(np.abs(k), -1, -2))
        scores = qk * scale + bias
        top = np.max(scores, axis=-1, keepdims=True)
        weights = np.exp(scores - top)
        weights = weights / np.sum(weights, axis=-1, keepdims=True)
        out = np.matmul(weights, v)
        spread = np.matmul(weights, np.abs(v))  # Σ p·|v|
        # the scores' error in units of u (before the softmax), at the positions that hold weight
        error = ((e + 2) * abs(scale) * terms + 3 * np.abs(qk * scale) + np.abs(scores)
                 + np.abs(scores - top))
        error = np.where(np.isfinite(scores), error, 0)
        # the scores' errors δ move the output by Σ_s p_s·(δ_s − Σ_r p_r·δ_r)·v_s = Σ_s p_s·δ_s·(v_s − y)
        moved = np.einsum("...is,...isc->...ic", weights * error,
                          np.abs(v[..., None, :, :] - out[..., :, None, :]))
    shape = (*batch, length, out.shape[-1])
    return {"dtype": dtype, "out": np.broadcast_to(out, shape), "dead": np.broadcast_to(np.isneginf(top), shape),
            "magnitude": np.broadcast_to((moved + (source + 14 + source + 2) * spread) / (source + 2), shape),
            "source": source}


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = _parts(inputs, attributes)
    dead = found["dead"]  # rows masked whole: 0/0 in the pseudo-code's Softmax
    return [round_to(found["out"], found["dtype"])], [np.array(dead) if dead.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [np.nan_to_num(np.asarray(_parts(inputs, attributes)["magnitude"], dtype=np.float64))]
