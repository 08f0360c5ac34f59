"""OpenVINO Split-1 (movement/split-1.rst): ``num_splits`` outputs, equal chunks of ``data`` along the scalar
``axis`` (in [-rank, rank-1]); the axis's dim must divide evenly, ``num_splits`` lies in [1, data.shape[axis]].
The outputs are all one port (``output``): a case names as many as it asks for.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, INDEX_TYPES, axis_of, movement
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "Split", (1,), attributes=(Attribute("num_splits", "int", required=True),),
                inputs=(Port("data"), Port("axis", dtype="int64", dtypes=INDEX_TYPES)), outputs=(Port("output"),),
                types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Split-{since}"
    x = data[0]
    if ints[0].ndim != 0:
        raise SpecViolation(f"{label}: axis is a scalar, got shape {list(ints[0].shape)}")
    axis = axis_of(label, int(ints[0]), x.ndim)
    count, extent = int(attrs["num_splits"]), x.shape[axis]
    if not 1 <= count <= max(extent, 1) or extent % count:
        raise SpecViolation(f"{label}: num_splits {count} does not divide dim {extent} (range [1, {extent}])")
    return list(np.split(x, count, axis=axis))


output_shapes, evaluate = movement(SCHEMA, _compute)
