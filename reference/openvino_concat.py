"""OpenVINO Concat-1 (movement/concat-1.rst): the inputs (one or more, of one type T, one positive rank, equal dims
but along ``axis``) joined along ``axis`` in [-R, R-1]; the output's dim there is the sum of theirs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_TYPE, axis_of, movement
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "Concat", (1,), attributes=(Attribute("axis", "int", required=True),),
                inputs=(Port("data"),), outputs=(Port("output"),), types=((0, ANY_TYPE),))
VERSIONS = SCHEMA.versions


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Concat-{since}"
    rank = data[0].ndim
    if rank == 0 or any(x.ndim != rank for x in data):
        raise SpecViolation(f"{label}: every input has one positive rank, got {[x.ndim for x in data]}")
    axis = axis_of(label, int(attrs["axis"]), rank)
    for x in data:
        if any(a != b for i, (a, b) in enumerate(zip(x.shape, data[0].shape)) if i != axis):
            raise SpecViolation(f"{label}: shapes {[list(x.shape) for x in data]} differ off axis {axis}")
    return [np.concatenate(data, axis=axis)]


output_shapes, evaluate = movement(SCHEMA, _compute, minimum_inputs=1)
