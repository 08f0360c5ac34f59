"""OpenVINO Tile-1 (movement/tile-1.rst): ``data`` repeated ``repeats[i]`` times along each axis i; the shorter of
data's shape and ``repeats`` is promoted by leading 1s (the page's two rules), so the output's rank is the larger.
A repeat of 0 gives an empty axis; a negative one is no replication factor (rejected).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, INDEX_TYPES, movement, one_d
from .schema import Port, Schema

SCHEMA = Schema("openvino", "Tile", (1,), inputs=(Port("data"), Port("repeats", dtype="int64", dtypes=INDEX_TYPES)),
                outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Tile-{since}"
    repeats = one_d(label, "repeats", ints[0])
    if any(r < 0 for r in repeats):
        raise SpecViolation(f"{label}: repeats {repeats} holds a negative replication factor")
    x = data[0]
    rank = max(x.ndim, len(repeats))
    x = x.reshape((1,) * (rank - x.ndim) + x.shape)
    return [np.tile(x, [1] * (rank - len(repeats)) + repeats)]


output_shapes, evaluate = movement(SCHEMA, _compute)
