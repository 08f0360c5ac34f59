"""OpenVINO DepthToSpace-1 (movement/depth-to-space-1.rst): ``[N, C, D1, ..., DK]`` (rank >= 3) to
``[N, C / bs^K, D1 * bs, ..., DK * bs]`` by the text's reshape-transpose-reshape; ``blocks_first`` splits the depth
as ``[bs, ..., bs, C / bs^K]``, ``depth_first`` as ``[C / bs^K, bs, ..., bs]``. C must divide by bs^K.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, movement
from .schema import Attribute, Port, Schema

MODES = ("blocks_first", "depth_first")
SCHEMA = Schema("openvino", "DepthToSpace", (1,),
                attributes=(Attribute("block_size", "int", default=1),
                            Attribute("mode", "enum", values=MODES, required=True)),
                inputs=(Port("data"),), outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def depth_to_space(label: str, x: np.ndarray, bs: int, mode: str) -> np.ndarray:
    if x.ndim < 3:
        raise SpecViolation(f"{label}: data has rank {x.ndim}; the text needs rank >= 3")
    if bs < 1:
        raise SpecViolation(f"{label}: block_size {bs} is no positive integer")
    n, c, spatial = x.shape[0], x.shape[1], list(x.shape[2:])
    k = len(spatial)
    if c % bs**k:
        raise SpecViolation(f"{label}: depth {c} is not divisible by block_size^{k} = {bs**k}")
    depth = c // bs**k
    if mode == "blocks_first":
        xp = x.reshape([n] + [bs] * k + [depth] + spatial)
        order = [0, k + 1] + [a for i in range(k) for a in (k + 2 + i, 1 + i)]
    else:
        xp = x.reshape([n, depth] + [bs] * k + spatial)
        order = [0, 1] + [a for i in range(k) for a in (k + 2 + i, 2 + i)]
    return np.transpose(xp, order).reshape([n, depth] + [d * bs for d in spatial])


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    return [depth_to_space(f"DepthToSpace-{since}", data[0], int(attrs["block_size"]), str(attrs["mode"]))]


output_shapes, evaluate = movement(SCHEMA, _compute)
