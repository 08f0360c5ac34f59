"""OpenVINO ScatterElementsUpdate-3 and -12: a copy of ``data`` where each element of ``updates`` is written at its own
position with the ``axis`` coordinate taken from ``indices`` (scatter-elements-update-3.rst)::

    output[indices[i][j][k]][j][k] = updates[i][j][k]   (axis 0; likewise for the others)

``indices`` and ``updates`` have one shape, of the rank of ``data``, each extent at most data's ("update tensor
dimensions are less or equal to the corresponding data tensor dimensions"). ``axis`` in ``[-r, r - 1]``. Index values
lie in ``[0, s - 1]``: one outside or negative raises an exception (refused here). Duplicates: "the order of updating
the values is undefined" - elements written with differing values are unspecified.

-12 adds ``reduction`` (none, sum, prod, min, max, mean: ``output[indices[i]] = reduction(updates[i],
output[indices[i]])``) and ``use_init_val`` (whether the data element is the reduction's first term; no effect for
none), and negative indices in ``[-d, d - 1]`` (normalized by ``d + index``). The reductions commute, so duplicates
give one value (computed exactly, rounded once); a mean of integers is rounded down. Its examples write the
attributes on the <layer> element, not in <data> (docs/spec-notes.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import (
    ANY_TYPE,
    INTEGER_TYPES,
    data_input,
    inputs_count,
    integer_input,
    normalized_axis,
    scalar_input,
    scatter,
    scatter_reduce,
)
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "ScatterElementsUpdate", (3, 12),
    attributes=(Attribute("reduction", "enum", default="none", values=("none", "sum", "prod", "min", "max", "mean"),
                          since=12),
                Attribute("use_init_val", "bool", default=True, since=12)),
    inputs=(Port("data"), Port("indices", dtype="int64", dtypes=INTEGER_TYPES), Port("updates"),
            Port("axis", dtype="int64", dtypes=INTEGER_TYPES)),
    outputs=(Port("output"),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _axis(since: int, shapes: list[tuple[int, ...]], axis: int, attributes: dict[str, Any]) -> int:
    label = f"ScatterElementsUpdate-{since}"
    attributes_of(SCHEMA, since, attributes)
    data, indices, updates = (tuple(s) for s in shapes[:3])
    if not data:
        raise SpecViolation(f"{label}: data has rank 0 (axis has no allowed value)")
    if indices != updates or len(indices) != len(data):
        raise SpecViolation(f"{label}: indices {list(indices)} and updates {list(updates)} have one shape of data's "
                            f"rank {len(data)}")
    axis = normalized_axis(axis, len(data), label)
    # -3: every extent at most data's; -12: "the dimension pointed by axis can be also greater"
    if any(u > d for n, (u, d) in enumerate(zip(updates, data)) if since < 12 or n != axis):
        raise SpecViolation(f"{label}: updates {list(updates)} exceed data {list(data)} along an axis")
    return axis


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"ScatterElementsUpdate-{since}"
    inputs_count(input_shapes, (4,), label)
    if input_values is None or 3 not in input_values:
        raise SpecViolation(f"{label}: the axis value is needed")
    _axis(since, input_shapes, scalar_input(input_values[3], label, "axis"), attributes)
    return [tuple(input_shapes[0])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"ScatterElementsUpdate-{since}"
    inputs_count(inputs, (4,), label)
    data = data_input(inputs[0], label)
    indices = integer_input(inputs[1], label, "indices")
    updates = np.asarray(inputs[2])
    if updates.dtype != data.dtype:
        raise SpecViolation(f"{label}: updates of type {updates.dtype}, data of {data.dtype} (one type T)")
    axis = _axis(since, [data.shape, indices.shape, updates.shape], scalar_input(inputs[3], label, "axis"), attributes)
    size = data.shape[axis]
    low = -size if since >= 12 else 0
    if np.any(indices < low) or np.any(indices >= size):
        raise SpecViolation(f"{label}: an index outside [{low}, {size - 1}] (the text: an exception is raised)")
    targets = list(np.indices(updates.shape)) if updates.ndim else []
    targets[axis] = np.where(indices < 0, indices + size, indices)
    found = attributes_of(SCHEMA, since, attributes)
    if since < 12 or found["reduction"] == "none":
        out, mask = scatter(data, targets, updates)
    else:
        out, mask = scatter_reduce(data, targets, updates, found["reduction"], bool(found["use_init_val"]))
    return [out], [mask]
