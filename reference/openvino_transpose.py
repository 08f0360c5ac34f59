"""OpenVINO Transpose-1 (movement/transpose-1.rst): ``output[i(order[0]), ..., i(order[N-1])] = input[i(0), ...,
i(N-1)]`` - output axis k is input axis ``order[k]``. ``input_order`` holds every integer of [0, n-1] once (n the
input's rank), or is empty (shape [0]): the axes reversed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, INDEX_TYPES, movement, one_d
from .schema import Port, Schema

SCHEMA = Schema("openvino", "Transpose", (1,),
                inputs=(Port("arg"), Port("input_order", dtype="int64", dtypes=INDEX_TYPES)),
                outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def order_of(label: str, rank: int, values: list[int]) -> list[int]:
    if not values:
        return list(range(rank))[::-1]
    if sorted(values) != list(range(rank)):
        raise SpecViolation(f"{label}: input_order {values} is no permutation of [0, {rank - 1}]")
    return values


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Transpose-{since}"
    return [np.transpose(data[0], order_of(label, data[0].ndim, one_d(label, "input_order", ints[0])))]


output_shapes, evaluate = movement(SCHEMA, _compute)
