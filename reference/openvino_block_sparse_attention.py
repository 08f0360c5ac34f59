"""OpenVINO BlockSparseAttention-17 (sequence/block-sparse-attention-17.rst): the page's pseudo-code. Query block
``qb`` (``block_size`` queries) attends to the key positions of the blocks ``block_indices[b, hb, qb]`` names, an
entry dropped where ``block_indices_mask`` is false (or zero) or the index lies outside ``[0, S / block_size)``;
``causal`` drops a key after the query. ``Hk`` and ``Hb`` are H or 1 (broadcast). ``scale`` defaults to 1/sqrt(E).
A query with no key left has an all-zero output row (the pseudo-code's comment). A block named twice is listed
twice in ``key_positions`` and so weighs twice in the softmax (the pseudo-code as printed; docs/spec-notes.md).

Judged by the accumulation bound, K = S (reference/_sparse_attention.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import INTEGER_TYPES
from ._pnorm import round_to
from ._sparse_attention import attend
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "BlockSparseAttention", (17,),
    attributes=(Attribute("block_size", "int", required=True), Attribute("causal", "bool", default=False)),
    inputs=(Port("query"), Port("key"), Port("value"), Port("block_indices", dtype="int32", dtypes=INTEGER_TYPES),
            Port("block_indices_mask", dtype="bool", dtypes=("bool", "uint8"), optional=True),
            Port("scale", optional=True)),
    outputs=(Port("output"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = "BlockSparseAttention-17"


def _shapes(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> dict[str, int]:
    found = attributes_of(SCHEMA, 17, attributes)
    size = found["block_size"]
    if not isinstance(size, int) or size < 1:
        raise SpecViolation(f"{LABEL}: block_size is a positive integer, got {size!r}")
    if len(shapes) not in (4, 5, 6):
        raise SpecViolation(f"{LABEL} takes 4 to 6 inputs, got {len(shapes)}")
    q, k, v, bi = (tuple(s) for s in shapes[:4])
    if not len(q) == len(k) == len(v) == len(bi) == 4:
        raise SpecViolation(f"{LABEL}: query, key, value and block_indices are 4-D")
    b, h, length, e = q
    hk, source = k[1], k[2]
    if k[0] != b or v[0] != b or bi[0] != b or k[3] != e or v[1] != hk or v[2] != source:
        raise SpecViolation(f"{LABEL}: query {list(q)}, key {list(k)} and value {list(v)} disagree")
    if hk not in (1, h) or bi[1] not in (1, h):
        raise SpecViolation(f"{LABEL}: Hk ({hk}) and Hb ({bi[1]}) are H ({h}) or 1")
    if length % size or source % size:
        raise SpecViolation(f"{LABEL}: L ({length}) and S ({source}) are divisible by block_size ({size})")
    if bi[2] != length // size:
        raise SpecViolation(f"{LABEL}: block_indices has L / block_size = {length // size} query blocks, got {bi[2]}")
    if len(shapes) > 4 and tuple(shapes[4]) != bi:
        raise SpecViolation(f"{LABEL}: block_indices_mask has block_indices' shape {list(bi)}")
    if len(shapes) > 5 and tuple(shapes[5]) not in ((), (1,)):
        raise SpecViolation(f"{LABEL}: scale is a scalar or a one-element 1-D tensor, got {list(shapes[5])}")
    return {"b": b, "h": h, "hk": hk, "l": length, "s": source, "e": e, "ev": v[3], "size": size,
            "causal": bool(found["causal"])}


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    d = _shapes([tuple(s) for s in input_shapes], attributes)
    return [(d["b"], d["h"], d["l"], d["ev"])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: each output element sums at most S weighted values (more where a block is named twice: K counts them)."""
    shapes = [tuple(s) for s in input_shapes]
    d = _shapes(shapes, attributes)
    return int(max(d["s"], shapes[3][3] * d["size"]))


def key_counts(block_indices: np.ndarray, mask: np.ndarray | None, d: dict[str, int]) -> np.ndarray:
    """[B, H, L, S]: how many times each key position is in a query's ``positions`` (the pseudo-code's lists)."""
    counts = np.zeros((d["b"], d["h"], d["l"], d["s"]), dtype=np.int64)
    blocks = d["s"] // d["size"]
    for b, h in np.ndindex(d["b"], d["h"]):
        hb = 0 if block_indices.shape[1] == 1 else h
        for qb in range(block_indices.shape[2]):
            for i, block in enumerate(block_indices[b, hb, qb]):
                if (mask is not None and not mask[b, hb, qb, i]) or not 0 <= int(block) < blocks:
                    continue
                for qi in range(d["size"]):
                    q_pos = qb * d["size"] + qi
                    for t in range(d["size"]):
                        p = int(block) * d["size"] + t
                        if not d["causal"] or p <= q_pos:
                            counts[b, h, q_pos, p] += 1
    return counts


def _parts(inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Any]:
    arrays = [np.asarray(a) for a in inputs]
    dtype = arrays[0].dtype
    if dtype.name not in OV_FLOATS:
        raise SpecViolation(f"{LABEL}: T is a floating-point type, got {dtype.name}")
    for i in (1, 2, 5):
        if i < len(arrays) and arrays[i].dtype != dtype:
            raise SpecViolation(f"{LABEL}: input {i + 1} is {arrays[i].dtype.name}, T is {dtype.name}")
    if arrays[3].dtype.name not in INTEGER_TYPES:
        raise SpecViolation(f"{LABEL}: block_indices is of an integer type, got {arrays[3].dtype.name}")
    if len(arrays) > 4 and arrays[4].dtype.name not in ("bool", "uint8"):
        raise SpecViolation(f"{LABEL}: block_indices_mask is boolean or u8, got {arrays[4].dtype.name}")
    d = _shapes([a.shape for a in arrays], attributes)
    counts = key_counts(arrays[3], arrays[4] if len(arrays) > 4 else None, d)
    k, v = (np.repeat(a, d["h"], axis=1) if d["hk"] == 1 else a for a in arrays[1:3])
    scale = arrays[5] if len(arrays) > 5 else 1 / np.sqrt(np.float64(d["e"]))
    out, dead, magnitude = attend(arrays[0], k, v, counts, scale)
    return {"dtype": dtype, "out": np.where(dead[..., None], 0, out), "magnitude": magnitude}


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = _parts(inputs, attributes)
    return [round_to(found["out"], found["dtype"])], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [_parts(inputs, attributes)["magnitude"]]
