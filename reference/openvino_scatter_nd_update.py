"""OpenVINO ScatterNDUpdate-3, -14 and -15: a copy of ``data`` with the elements or slices the index tuples of
``indices`` name replaced by ``updates`` (scatter-nd-update-3.rst): tuples of ``k = indices.shape[-1] <= r``
indices, ``updates`` of shape ``indices.shape[:-1] + data.shape[k:]`` (a single-element tensor where that is 0-D).
Index values "must be within
bounds [0, s_j - 1]" (refused otherwise); "In case of duplicate entries in indices the result is undefined": the
elements written more than once with differing values are unspecified.

-14 and -15 add ``reduction`` (none, sum, sub, prod, min, max: the page's NumPy snippet, ``out[idx] = func(out[idx],
update)``) and negative indices in ``[-s_j, s_j - 1]`` ("If an index points to non-existing element then exception is
raised"). Duplicates with ``none``: -14 "only last update for given duplicated index is used", -15 "the order of
updating the values is undefined" (unspecified where they differ); the reductions commute (exact, rounded once).
Their examples write reduction on the <layer> element, spell the type "ScatterNdUpdate" and give indices the shape
[5] for the tuples of one index their values need ([5, 1]) (docs/spec-notes.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, data_input, inputs_count, integer_input, scatter, scatter_reduce
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "ScatterNDUpdate", (3, 14, 15),
    attributes=(Attribute("reduction", "enum", default="none", values=("none", "sum", "sub", "prod", "min", "max"),
                          since=14),),
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
    low = -sizes if since >= 14 else 0
    if np.any(indices < low) or np.any(indices >= sizes):
        raise SpecViolation(f"{label}: an index outside the bounds of its axis (the text: must be within bounds)")
    indices = np.where(indices < 0, indices + sizes, indices)
    lead = indices.shape[:-1]
    shaped = updates.reshape((*lead, *data.shape[k:]))
    grid = np.indices(shaped.shape) if shaped.ndim else []
    n = len(lead)
    targets = [np.broadcast_to(indices[..., j].reshape((*lead, *(1,) * (data.ndim - k))), shaped.shape)
               for j in range(k)] + [grid[n + j] for j in range(data.ndim - k)]
    reduction = attributes_of(SCHEMA, since, attributes).get("reduction", "none")
    if since < 14 or reduction == "none" and since >= 15:
        out, mask = scatter(data, targets, shaped)
    else:
        out, mask = scatter_reduce(data, targets, shaped, reduction, last_wins=since == 14)
    return [out], [mask]
