"""OpenVINO Squeeze-1 and Squeeze-15 (shape/squeeze-1.rst, squeeze-15.rst): without ``axes`` every dimension of 1
is removed; with ``axes`` (a scalar or 1-D, each in [-R, R-1]) the named dimensions that are 1 are removed and a
named dimension other than 1 "will be ignored and copied as is". An empty ``axes`` reads as no axes (the pages'
note: "If the input with indices is empty or not provided"); an axis named twice is removed once. Squeeze-15's
``allow_axis_skip`` changes only the shape inference of dynamic dimensions: static shapes, the same values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._movement import ANY_TYPE, INDEX_TYPES, axis_of, movement, one_d
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "Squeeze", (1, 15),
                attributes=(Attribute("allow_axis_skip", "bool", default=False, since=15),),
                inputs=(Port("data"), Port("axes", dtype="int64", dtypes=INDEX_TYPES, optional=True)),
                outputs=(Port("output"),), types=((0, ANY_TYPE),))
VERSIONS = SCHEMA.versions


def squeezed(label: str, shape: tuple[int, ...], axes: list[int] | None) -> tuple[int, ...]:
    if not axes:
        return tuple(d for d in shape if d != 1)
    named = {axis_of(label, a, len(shape)) for a in axes}
    return tuple(d for i, d in enumerate(shape) if not (i in named and d == 1))


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Squeeze-{since}"
    axes = None if ints[0] is None else one_d(label, "axes", ints[0], scalar=True)
    return [data[0].reshape(squeezed(label, data[0].shape, axes))]


output_shapes, evaluate = movement(SCHEMA, _compute)
