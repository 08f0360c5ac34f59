"""OpenVINO Roll-7 (movement/roll-7.rst): ``data``'s elements shifted by ``shift`` along ``axes`` (each a scalar
or 1-D of int32/int64), those shifted past the end re-entering at the start. A scalar shift applies to every axis; a
1-D shift pairs with a 1-D axes of its size (the page's second example, a shift of shape [1] with two axes,
contradicts that: docs/spec-notes.md). An axis named twice rolls by the sum of its shifts; a negative axis counts from
the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, INT32_64, axis_of, movement, one_d
from .schema import Port, Schema

SCHEMA = Schema("openvino", "Roll", (7,),
                inputs=(Port("data"), Port("shift", dtype="int64", dtypes=INT32_64),
                        Port("axes", dtype="int64", dtypes=INT32_64)),
                outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def shifts_of(label: str, rank: int, shift: np.ndarray, axes: np.ndarray) -> dict[int, int]:
    """axis -> its total shift."""
    named = [axis_of(label, a, rank, "axes value") for a in one_d(label, "axes", axes, scalar=True)]
    by = one_d(label, "shift", shift, scalar=True)
    if shift.ndim == 0:
        by = by * len(named)
    elif axes.ndim != 1 or len(by) != len(named):
        raise SpecViolation(f"{label}: a 1-D shift needs a 1-D axes of its size, got {len(by)} and {len(named)}")
    total: dict[int, int] = {}
    for axis, step in zip(named, by):
        total[axis] = total.get(axis, 0) + step
    return total


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    x = data[0]
    total = shifts_of(f"Roll-{since}", x.ndim, ints[0], ints[1])
    return [np.roll(x, list(total.values()), axis=list(total)) if total else x]


output_shapes, evaluate = movement(SCHEMA, _compute)
