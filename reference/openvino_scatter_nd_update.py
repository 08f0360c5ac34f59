"""OpenVINO ScatterNDUpdate-3: a copy of ``data`` with the elements or slices the index tuples of ``indices`` name
replaced by ``updates`` (scatter-nd-update-3.rst): tuples of ``k = indices.shape[-1] <= r`` indices, ``updates`` of
shape ``indices.shape[:-1] + data.shape[k:]`` (a single-element tensor where that is 0-D). Index values "must be within
bounds [0, s_j - 1]" (refused otherwise); "In case of duplicate entries in indices the result is undefined": the
elements written more than once with differing values are unspecified. (-14/-15's reductions are not modelled yet:
their examples put reduction on the <layer> element and spell the type "ScatterNdUpdate", docs/spec-notes.md.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, data_input, inputs_count, integer_input, scatter
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "ScatterNDUpdate", (3,),
    inputs=(Port("data"), Port("indices", dtype="int64", dtypes=INDEX_TYPES), Port("updates")),
    outputs=(Port("output"),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _depth(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> int:
    label = f"ScatterNDUpdate-{since}"
    attributes_of(SCHEMA, since, attributes)
    data, indices, updates = (tuple(s) for s in shapes[:3])
    if not data or not indices:
        raise SpecViolation(f"{label}: data and indices have rank >= 1, got {list(data)} and {list(indices)}")
    k = indices[-1]
    if k > len(data):
        raise SpecViolation(f"{label}: indices.shape[-1] = {k} exceeds data's rank {len(data)}")
    wanted = (*indices[:-1], *data[k:])
    if updates != wanted and not (wanted == () and int(np.prod(updates)) == 1):
        raise SpecViolation(f"{label}: updates has shape {list(updates)}, the text's {list(wanted)}")
    return k


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    inputs_count(input_shapes, (3,), f"ScatterNDUpdate-{since}")
    _depth(since, input_shapes, attributes)
    return [tuple(input_shapes[0])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"ScatterNDUpdate-{since}"
    inputs_count(inputs, (3,), label)
    data = data_input(inputs[0], label)
    indices = integer_input(inputs[1], label, "indices", INDEX_TYPES)
    updates = np.asarray(inputs[2])
    if updates.dtype != data.dtype:
        raise SpecViolation(f"{label}: updates of type {updates.dtype}, data of {data.dtype} (one type T)")
    k = _depth(since, [data.shape, indices.shape, updates.shape], attributes)
    sizes = np.array(data.shape[:k], dtype=np.int64)
    if np.any(indices < 0) or np.any(indices >= sizes):
        raise SpecViolation(f"{label}: an index outside [0, s_j - 1] (the text: must be within bounds)")
    lead = indices.shape[:-1]
    shaped = updates.reshape((*lead, *data.shape[k:]))
    grid = np.indices(shaped.shape) if shaped.ndim else []
    n = len(lead)
    targets = [np.broadcast_to(indices[..., j].reshape((*lead, *(1,) * (data.ndim - k))), shaped.shape)
               for j in range(k)] + [grid[n + j] for j in range(data.ndim - k)]
    out, mask = scatter(data, targets, shaped)
    return [out], [mask]
