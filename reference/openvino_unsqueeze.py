"""OpenVINO Unsqueeze-1 (shape/unsqueeze-1.rst): dimensions of 1 inserted at the ``axes`` (a scalar or 1-D), which
index the output, each in [-R, R-1] with R the output rank (the input rank plus the number of axes). An axis named
twice (after negative ones are counted from the end) is rejected: it would leave the output rank undefined
(docs/spec-notes.md, "OpenVINO shape and data movement").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_TYPE, INDEX_TYPES, axis_of, movement, one_d
from .schema import Port, Schema

SCHEMA = Schema("openvino", "Unsqueeze", (1,),
                inputs=(Port("data"), Port("axes", dtype="int64", dtypes=INDEX_TYPES)), outputs=(Port("output"),),
                types=((0, ANY_TYPE),))
VERSIONS = SCHEMA.versions


def unsqueezed(label: str, shape: tuple[int, ...], axes: list[int]) -> tuple[int, ...]:
    rank = len(shape) + len(axes)
    named = [axis_of(label, a, rank) for a in axes]
    if len(set(named)) != len(named):
        raise SpecViolation(f"{label}: axes {axes} name one output axis twice")
    rest = iter(shape)
    return tuple(1 if i in named else next(rest) for i in range(rank))


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Unsqueeze-{since}"
    return [data[0].reshape(unsqueezed(label, data[0].shape, one_d(label, "axes", ints[0], scalar=True)))]


output_shapes, evaluate = movement(SCHEMA, _compute)
