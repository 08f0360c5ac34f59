"""OpenVINO BatchToSpace-2 (movement/batch-to-space-2.rst): ``[batch, D1, ..., D_{N-1}]`` (rank N >= 2) to
``[batch / prod(B), D1 * B1 - CB1 - CE1, ...]``: the batch read as ``[B1, ..., B_{N-1}, batch / prod(B)]``, each
block interleaved after its spatial dim (``[batch', D1, B1, D2, B2, ...]``), then cropped. The text's transpose
``[N, N + 1, 0, N + 2, 1, ...]`` names axes a reshaped tensor of 2N - 1 axes does not have; the shapes it states
(step 2's) are what is computed (docs/spec-notes.md). block_shape >= 1 with block_shape[0] = 1, crops >= 0 with
crops[0] = 0, CB + CE <= D * B.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, INDEX_TYPES, movement, one_d
from .schema import Port, Schema

SCHEMA = Schema("openvino", "BatchToSpace", (2,),
                inputs=(Port("data"), Port("block_shape", dtype="int64", dtypes=INDEX_TYPES),
                        Port("crops_begin", dtype="int64", dtypes=INDEX_TYPES),
                        Port("crops_end", dtype="int64", dtypes=INDEX_TYPES)),
                outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def check_blocks(label: str, rank: int, block: list[int], begin: list[int], end: list[int], what: str) -> None:
    if rank < 2:
        raise SpecViolation(f"{label}: data has rank {rank}; the text needs rank >= 2")
    if not len(block) == len(begin) == len(end) == rank:
        raise SpecViolation(f"{label}: block_shape and {what} hold one value per axis ({rank})")
    if any(b < 1 for b in block) or block[0] != 1:
        raise SpecViolation(f"{label}: block_shape {block} - values >= 1, the first 1")
    if any(v < 0 for v in begin + end) or begin[0] or end[0]:
        raise SpecViolation(f"{label}: {what} {begin}, {end} - values >= 0, the first 0")


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"BatchToSpace-{since}"
    x = data[0]
    block, begin, end = (one_d(label, name, v) for name, v in zip(("block_shape", "crops_begin", "crops_end"), ints))
    check_blocks(label, x.ndim, block, begin, end, "crops")
    blocks, spatial = block[1:], list(x.shape[1:])
    if x.shape[0] % math.prod(blocks):
        raise SpecViolation(f"{label}: batch {x.shape[0]} is not divisible by the blocks' product {math.prod(blocks)}")
    if any(b + e > d * s for b, e, d, s in zip(begin[1:], end[1:], spatial, blocks)):
        raise SpecViolation(f"{label}: crops {begin}, {end} exceed the unfolded dims")
    k, batch = len(blocks), x.shape[0] // math.prod(blocks)
    xp = x.reshape(blocks + [batch] + spatial)  # axes: B1..Bk (0..k-1), batch' (k), D1..Dk (k+1..2k)
    xpp = xp.transpose([k] + [a for i in range(k) for a in (k + 1 + i, i)])
    y = xpp.reshape([batch] + [d * s for d, s in zip(spatial, blocks)])
    crop = tuple(slice(b, d * s - e) for b, e, d, s in zip(begin[1:], end[1:], spatial, blocks))
    return [y[(slice(None), *crop)]]


output_shapes, evaluate = movement(SCHEMA, _compute)
