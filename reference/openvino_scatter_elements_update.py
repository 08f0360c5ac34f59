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
    axis_scatter_inputs,
    axis_scatter_shapes,
    normalized_axis,
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
    return axis_scatter_shapes(f"ScatterElementsUpdate-{since}", since, input_shapes, attributes, input_values, _axis)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"ScatterElementsUpdate-{since}"
    data, indices, updates, axis = axis_scatter_inputs(label, since, inputs, attributes, _axis)
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
