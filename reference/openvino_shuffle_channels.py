"""OpenVINO ShuffleChannels-1 (movement/shuffle-channels-1.rst): the input seen as ``[outer, group, C / group,
inner]`` around ``axis`` (in [-rank, rank-1], default 1; rank >= 1), its two middle axes swapped, reshaped back:
``reshape(x, [N, group, C / group, H * W])``, ``transpose([0, 2, 1, 3])``. ``group`` (default 1) lies in
[1, C] and divides C.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_TYPE, axis_of, movement
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "ShuffleChannels", (1,),
                attributes=(Attribute("axis", "int", default=1), Attribute("group", "int", default=1)),
                inputs=(Port("data"),), outputs=(Port("output"),), types=((0, ANY_TYPE),))
VERSIONS = SCHEMA.versions


def shuffle(label: str, x: np.ndarray, axis: int, group: int) -> np.ndarray:
    if x.ndim < 1:
        raise SpecViolation(f"{label}: data has rank 0; the text needs rank >= 1")
    a = axis_of(label, axis, x.ndim)
    c = x.shape[a]
    if not 1 <= group <= max(c, 1) or c % group:
        raise SpecViolation(f"{label}: group {group} does not divide the channel dim {c} (range [1, {c}])")
    outer, inner = math.prod(x.shape[:a]), math.prod(x.shape[a + 1:])
    return x.reshape(outer, group, c // group, inner).transpose(0, 2, 1, 3).reshape(x.shape)


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    return [shuffle(f"ShuffleChannels-{since}", data[0], int(attrs["axis"]), int(attrs["group"]))]


output_shapes, evaluate = movement(SCHEMA, _compute)
