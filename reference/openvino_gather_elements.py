"""OpenVINO GatherElements-6: ``out[i][j][k] = data[indices[i][j][k]][j][k]`` for axis 0 (and so on for every
axis, gather-elements-6.rst); the output has the shape of ``indices``.

``data`` and ``indices`` have one rank r >= 1, and "the indices tensor has the same shape as the data tensor
except for the axis dimension" (all three of the page's examples keep to that: example 2's indices are longer along
the axis, example 3's shorter). ``axis`` is required, in ``[-r, r - 1]``. Index values "are expected to be within
bounds [0, s-1]": the text says nothing of others, so the elements an index outside that range reaches are
unspecified (a negative index included: the text does not count it from the end).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, data_input, inputs_count, integer_input, normalized_axis
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "GatherElements", (6,),
    attributes=(Attribute("axis", "int", required=True),),
    inputs=(Port("data"), Port("indices", dtype="int64", dtypes=INDEX_TYPES)),
    outputs=(Port("output", rank_of=1),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _axis(since: int, data: tuple[int, ...], indices: tuple[int, ...], attributes: dict[str, Any]) -> int:
    label = f"GatherElements-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if len(data) < 1 or len(indices) != len(data):
        raise SpecViolation(f"{label}: data and indices have one rank >= 1, got {list(data)} and {list(indices)}")
    axis = normalized_axis(int(found["axis"]), len(data), label)
    if any(d != i for n, (d, i) in enumerate(zip(data, indices)) if n != axis):
        raise SpecViolation(f"{label}: indices {list(indices)} differ from data {list(data)} off the axis {axis}")
    return axis


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    inputs_count(input_shapes, (2,), f"GatherElements-{since}")
    _axis(since, tuple(input_shapes[0]), tuple(input_shapes[1]), attributes)
    return [tuple(input_shapes[1])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"GatherElements-{since}"
    inputs_count(inputs, (2,), label)
    data = data_input(inputs[0], label)
    indices = integer_input(inputs[1], label, "indices", INDEX_TYPES)
    axis = _axis(since, data.shape, indices.shape, attributes)
    outside = (indices < 0) | (indices >= data.shape[axis])
    if data.size == 0 or indices.size == 0:
        return [np.zeros(indices.shape, data.dtype)], [outside if outside.any() else None]
    out = np.take_along_axis(data, np.where(outside, 0, indices), axis=axis) if data.shape[axis] else \
        np.zeros(indices.shape, data.dtype)
    return [out], [outside if outside.any() else None]
