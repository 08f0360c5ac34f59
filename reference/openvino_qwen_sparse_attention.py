"""OpenVINO QwenSparseAttention-17 (sequence/qwen-sparse-attention-17.rst): the page's NumPy pseudo-code. Query
``l`` sits at position ``p = S - L + l``; each complete block of ``compress_ratio`` (r) keys at or before it is scored
``sum over index heads of relu(index_query · index_key_block)``; the ``token_budget // r`` best blocks (descending
score, equal scores: the smaller block first) and the tokens of the query's incomplete block are the keys it attends
to, with grouped-query heads (query head h reads key/value head ``h // (H // Hkv)``, numpy.repeat) and ``scale``
(default 1/sqrt(E)). ``indices`` lists the selected tokens: the blocks' in score order, then the tail ascending,
padded with -1 to ``token_budget + r - 1``.

The index scores are ranked in float64 ("accumulated with at least f32 precision"): where two blocks' scores are
within float32 rounding of each other an f32 implementation may rank them the other way (no case places such a tie
but the exact zeros ReLU gives, which the text orders by block index). Judged by the accumulation bound, K = S
(reference/_sparse_attention.py); ``indices`` exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to
from ._sparse_attention import attend
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "QwenSparseAttention", (17,),
    attributes=(Attribute("compress_ratio", "int", required=True), Attribute("token_budget", "int", required=True),
                Attribute("index_element_type", "enum", default="i32", values=("i32", "i64"))),
    inputs=(Port("query"), Port("key"), Port("value"), Port("index_query"), Port("index_key_blocks"),
            Port("scale", optional=True)),
    outputs=(Port("output"), Port("indices", dtype="int32", dtype_attribute="index_element_type", rank_of=None)),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = "QwenSparseAttention-17"


def _shapes(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> dict[str, int]:
    found = attributes_of(SCHEMA, 17, attributes)
    r, budget = found["compress_ratio"], found["token_budget"]
    if not isinstance(r, int) or r < 1:
        raise SpecViolation(f"{LABEL}: compress_ratio is a positive integer, got {r!r}")
    if not isinstance(budget, int) or budget < 1 or budget % r:
        raise SpecViolation(f"{LABEL}: token_budget is a positive integer divisible by compress_ratio, got {budget!r}")
    if len(shapes) not in (5, 6):
        raise SpecViolation(f"{LABEL} takes 5 or 6 inputs, got {len(shapes)}")
    q, k, v, iq, ik = (tuple(s) for s in shapes[:5])
    if len(q) != 4 or len(k) != 4 or len(v) != 4 or len(iq) != 4 or len(ik) != 3:
        raise SpecViolation(f"{LABEL}: query, key, value, index_query are 4-D and index_key_blocks 3-D")
    n, h, length, e = q
    hkv, source = k[1], k[2]
    if k[0] != n or v[0] != n or iq[0] != n or ik[0] != n:
        raise SpecViolation(f"{LABEL}: every input has the batch N = {n}")
    if k[3] != e or v[1] != hkv or v[2] != source:
        raise SpecViolation(f"{LABEL}: key [N, Hkv, S, E] and value [N, Hkv, S, Ev] disagree with query {list(q)}")
    if hkv < 1 or h % hkv:
        raise SpecViolation(f"{LABEL}: H ({h}) must be divisible by Hkv ({hkv})")
    if length > source:
        raise SpecViolation(f"{LABEL}: L ({length}) <= S ({source})")
    if iq[2] != length or ik[2] != iq[3] or ik[1] != source // r:
        raise SpecViolation(f"{LABEL}: index_query [N, Hi, L, Di] and index_key_blocks [N, floor(S / r), Di] "
                            f"disagree ({list(iq)}, {list(ik)})")
    if len(shapes) == 6 and tuple(shapes[5]) not in ((), (1,)):
        raise SpecViolation(f"{LABEL}: scale is a scalar or a one-element 1-D tensor, got {list(shapes[5])}")
    return {"n": n, "h": h, "hkv": hkv, "l": length, "s": source, "e": e, "ev": v[3], "r": r, "budget": budget}


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    d = _shapes([tuple(s) for s in input_shapes], attributes)
    return [(d["n"], d["h"], d["l"], d["ev"]), (d["n"], d["l"], d["budget"] + d["r"] - 1)]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: each output element sums the S weighted values (the unselected ones with weight 0)."""
    return int(_shapes([tuple(s) for s in input_shapes], attributes)["s"])


def selection(index_query: np.ndarray, index_key_blocks: np.ndarray, d: dict[str, int]) -> np.ndarray:
    """The page's ``indices`` [N, L, token_budget + r - 1]: selected tokens, -1 padded."""
    r, width = d["r"], d["budget"] + d["r"] - 1
    indices = np.full((d["n"], d["l"], width), -1, dtype=np.int64)
    for n in range(d["n"]):
        for query in range(d["l"]):
            p = d["s"] - d["l"] + query
            visible = (p + 1) // r
            chosen = np.zeros((0,), dtype=np.int64)
            if visible > 0:
                q = index_query[n, :, query, :].astype(np.float64)
                keys = index_key_blocks[n, :visible, :].astype(np.float64)
                scores = np.maximum(q @ keys.T, 0.0).sum(axis=0)
                blocks = np.argsort(-scores, kind="stable")[:min(d["budget"] // r, visible)]
                chosen = (blocks[:, None] * r + np.arange(r)[None, :]).reshape(-1)
            chosen = np.concatenate([chosen, np.arange(visible * r, p + 1)])
            indices[n, query, :chosen.size] = chosen
    return indices


def _parts(inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Any]:
    arrays = [np.asarray(a) for a in inputs]
    dtype = arrays[0].dtype
    if dtype.name not in OV_FLOATS:
        raise SpecViolation(f"{LABEL}: T is a floating-point type, got {dtype.name}")
    for i, a in enumerate(arrays):
        if a.dtype != dtype:
            raise SpecViolation(f"{LABEL}: input {i + 1} is {a.dtype.name}, T is {dtype.name}")
    d = _shapes([a.shape for a in arrays], attributes)
    indices = selection(arrays[3], arrays[4], d)
    counts = np.zeros((d["n"], d["l"], d["s"]), dtype=np.int64)
    for n, query in np.ndindex(d["n"], d["l"]):
        chosen = indices[n, query]
        counts[n, query, chosen[chosen >= 0]] = 1
    group = d["h"] // d["hkv"]
    k, v = (np.repeat(a, group, axis=1) for a in arrays[1:3])
    scale = arrays[5] if len(arrays) == 6 else 1 / np.sqrt(np.float64(d["e"]))
    out, _, magnitude = attend(arrays[0], k, v, np.broadcast_to(counts[:, None], (d["n"], d["h"], d["l"], d["s"])),
                               scale)
    kind = np.int64 if attributes_of(SCHEMA, 17, attributes)["index_element_type"] == "i64" else np.int32
    return {"dtype": dtype, "out": out, "indices": indices.astype(kind), "magnitude": magnitude}


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = _parts(inputs, attributes)
    return [round_to(found["out"], found["dtype"]), found["indices"]], [None, None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    found = _parts(inputs, attributes)
    return [found["magnitude"], np.abs(found["indices"]).astype(np.float64)]
