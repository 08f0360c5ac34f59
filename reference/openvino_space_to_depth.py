"""OpenVINO SpaceToDepth-1 (movement/space-to-depth-1.rst): ``[N, C, D1, ..., DK]`` (rank >= 3) to
``[N, C * bs^K, D1 / bs, ..., DK / bs]`` by the text's reshape-transpose-reshape; the output depth is gathered from
``[bs, ..., bs, C]`` (``blocks_first``) or ``[C, bs, ..., bs]`` (``depth_first``). Each Di must divide by bs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, movement
from .schema import Attribute, Port, Schema

MODES = ("blocks_first", "depth_first")
SCHEMA = Schema("openvino", "SpaceToDepth", (1,),
                attributes=(Attribute("block_size", "int", default=1),
                            Attribute("mode", "enum", values=MODES, required=True)),
                inputs=(Port("data"),), outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def space_to_depth(label: str, x: np.ndarray, bs: int, mode: str) -> np.ndarray:
    if x.ndim < 3:
        raise SpecViolation(f"{label}: data has rank {x.ndim}; the text needs rank >= 3")
    if bs < 1:
        raise SpecViolation(f"{label}: block_size {bs} is no positive integer")
    n, c, spatial = x.shape[0], x.shape[1], list(x.shape[2:])
    k = len(spatial)
    if any(d % bs for d in spatial):
        raise SpecViolation(f"{label}: spatial dims {spatial} are not divisible by block_size {bs}")
    xp = x.reshape([n, c] + [a for d in spatial for a in (d // bs, bs)])
    blocks, cells = [3 + 2 * i for i in range(k)], [2 + 2 * i for i in range(k)]
    order = [0] + blocks + [1] + cells if mode == "blocks_first" else [0, 1] + blocks + cells
    return np.transpose(xp, order).reshape([n, c * bs**k] + [d // bs for d in spatial])


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    return [space_to_depth(f"SpaceToDepth-{since}", data[0], int(attrs["block_size"]), str(attrs["mode"]))]


output_shapes, evaluate = movement(SCHEMA, _compute)
