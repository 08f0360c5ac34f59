"""OpenVINO Reshape-1: ``data``'s elements in row-major order under the shape the ``shape`` input describes
(shape/reshape-1.rst). ``0`` copies the input dimension at the same index when ``special_zero`` is true (the index
must lie below the input's rank), and is a dimension of 0 otherwise; one ``-1`` at most takes what keeps the
element count; every other value is a dimension. The volumes must match.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_TYPE, INDEX_TYPES, movement, one_d
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "Reshape", (1,), attributes=(Attribute("special_zero", "bool", required=True),),
                inputs=(Port("data"), Port("shape", dtype="int64", dtypes=INDEX_TYPES)), outputs=(Port("output"),),
                types=((0, ANY_TYPE),))
VERSIONS = SCHEMA.versions


def target_shape(label: str, shape: tuple[int, ...], values: list[int], special_zero: bool) -> tuple[int, ...]:
    """The output shape the text's rules give ``values`` for an input of ``shape``."""
    out: list[int | None] = []
    for index, value in enumerate(values):
        if value == 0 and special_zero:
            if index >= len(shape):
                raise SpecViolation(f"{label}: a 0 at index {index} copies no dimension of a rank-{len(shape)} input")
            out.append(shape[index])
        elif value == -1:
            out.append(None)
        elif value < 0:
            raise SpecViolation(f"{label}: shape value {value} is none of -1, 0 and a positive integer")
        else:
            out.append(value)
    if out.count(None) > 1:
        raise SpecViolation(f"{label}: more than one -1 in shape {values}")
    total, known = math.prod(shape), math.prod(d for d in out if d is not None)
    if None in out:
        if known == 0 or total % known:
            raise SpecViolation(f"{label}: no -1 dimension keeps {total} elements with the others {values}")
        out[out.index(None)] = total // known
    if math.prod(out) != total:  # type: ignore[arg-type]
        raise SpecViolation(f"{label}: shape {values} holds {math.prod(out)} elements, the input {total}")  # type: ignore[arg-type]
    return tuple(int(d) for d in out)  # type: ignore[arg-type]


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Reshape-{since}"
    values = one_d(label, "shape", ints[0])
    return [data[0].reshape(target_shape(label, data[0].shape, values, bool(attrs["special_zero"])))]


output_shapes, evaluate = movement(SCHEMA, _compute)
