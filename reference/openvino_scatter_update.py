"""OpenVINO ScatterUpdate-3: a copy of ``data`` with slices along ``axis`` replaced by ``updates``
(scatter-update-3.rst)::

    data[..., indices[m, n, ..., p], ...] = updates[..., m, n, ..., p, ...]

the first ``...`` the axes before ``axis``, the last the ``rank(data) - (axis + 1)`` after it, so ``updates`` has the
shape ``data.shape[:axis] + indices.shape + data.shape[axis + 1:]``. ``axis`` (a scalar or a 1-D tensor of one
element) lies in ``[-r, r - 1]``. Index values are in ``[0, s - 1]``: "If an index points to a non-existing output
tensor element or is negative, then an exception is raised" - such an instance is refused. Several indices pointing at
one place: "the order of updating the values is undefined" - the elements they write with differing values are
unspecified.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import (
    ANY_TYPE,
    INTEGER_TYPES,
    axis_scatter_inputs,
    axis_scatter_shapes,
    normalized_axis,
    scatter,
)
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "ScatterUpdate", (3,),
    inputs=(Port("data"), Port("indices", dtype="int64", dtypes=INTEGER_TYPES), Port("updates"),
            Port("axis", dtype="int64", dtypes=INTEGER_TYPES)),
    outputs=(Port("output"),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _axis(since: int, shapes: list[tuple[int, ...]], axis: int, attributes: dict[str, Any]) -> int:
    label = f"ScatterUpdate-{since}"
    attributes_of(SCHEMA, since, attributes)
    data, indices, updates = (tuple(s) for s in shapes[:3])
    if not data:
        raise SpecViolation(f"{label}: data has rank 0 (axis has no allowed value)")
    axis = normalized_axis(axis, len(data), label)
    wanted = (*data[:axis], *indices, *data[axis + 1:])
    if updates != wanted:
        raise SpecViolation(f"{label}: updates has shape {list(updates)}, the text's {list(wanted)}")
    return axis


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    return axis_scatter_shapes(f"ScatterUpdate-{since}", since, input_shapes, attributes, input_values, _axis)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"ScatterUpdate-{since}"
    data, indices, updates, axis = axis_scatter_inputs(label, since, inputs, attributes, _axis)
    if np.any(indices < 0) or np.any(indices >= data.shape[axis]):
        raise SpecViolation(f"{label}: an index outside [0, {data.shape[axis] - 1}] (the text: an exception is raised)")
    grid = np.indices(updates.shape) if updates.size else [np.zeros(updates.shape, np.int64)] * updates.ndim
    k = indices.ndim
    targets = [*grid[:axis], indices[tuple(grid[axis:axis + k])] if k else np.broadcast_to(indices, updates.shape),
               *grid[axis + k:]]
    out, mask = scatter(data, targets, updates)
    return [out], [mask]
