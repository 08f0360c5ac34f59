"""OpenVINO Gather-1, Gather-7 and Gather-8: slices of ``data`` along ``axis`` picked by ``indices``, the first
``batch_dims`` axes of both walked together (7 and 8).

The text (gather-8.rst, "Detailed description")::

    output[p_0, ..., p_{axis-1}, i_b, ..., i_{M-1}, p_{axis+1}, ..., p_{N-1}] =
        data[p_0, ..., p_{axis-1}, indices[p_0, ..., p_{b-1}, i_b, ..., i_{M-1}], p_{axis+1}, ..., p_{N-1}]

output shape ``data.shape[:axis] + indices.shape[batch_dims:] + data.shape[axis + 1:]``. Gather-1 is the case
b = 0. ``axis`` (input 3, a scalar or a 1-D tensor of one element) and ``batch_dims`` may be negative (``axis +
data.rank``, ``batch_dims + indices.rank``); ``batch_dims' <= axis'``, and the first b axes of data and indices are
equal.

The indices' range differs by version: -1 and -7 state ``[0, data.shape[axis] - 1]`` and say nothing of other
values (the elements such an index reaches are unspecified); -8 allows ``[-d, d - 1]`` (a negative index counts
from the end) and fills the elements of an index outside it with zeros (its Example 7).
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
    value_of,
)
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "Gather", (1, 7, 8),
    attributes=(Attribute("batch_dims", "int", default=0, since=7),),
    inputs=(Port("data"), Port("indices", dtype="int64", dtypes=INTEGER_TYPES),
            Port("axis", dtype="int64", dtypes=INTEGER_TYPES)),
    outputs=(Port("output", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _geometry(since: int, data: tuple[int, ...], indices: tuple[int, ...], axis: int,
              attributes: dict[str, Any]) -> tuple[int, int, tuple[int, ...]]:
    """(axis', batch_dims', output shape), ``SpecViolation`` for what the version forbids."""
    label = f"Gather-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if not data:
        raise SpecViolation(f"{label}: data has rank 0 (axis has no allowed value)")
    axis = normalized_axis(axis, len(data), label)
    batch = int(found.get("batch_dims", 0))
    low = min(len(data), len(indices))
    if not -low <= batch <= low:
        raise SpecViolation(f"{label}: batch_dims {batch} is outside [{-low}, {low}]")
    batch = batch + len(indices) if batch < 0 else batch
    if batch > axis:
        raise SpecViolation(f"{label}: batch_dims' {batch} > axis' {axis}")
    if tuple(data[:batch]) != tuple(indices[:batch]):
        raise SpecViolation(f"{label}: the first {batch} axes of data {list(data)} and indices {list(indices)} differ")
    return axis, batch, (*data[:axis], *indices[batch:], *data[axis + 1:])


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    inputs_count(input_shapes, (3,), f"Gather-{since}")
    axis = scalar_input(value_of(input_values, 2, f"Gather-{since}", "axis"), f"Gather-{since}", "axis")
    return [_geometry(since, tuple(input_shapes[0]), tuple(input_shapes[1]), axis, attributes)[2]]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"Gather-{since}"
    inputs_count(inputs, (3,), label)
    data = data_input(inputs[0], label)
    indices = integer_input(inputs[1], label, "indices")
    axis, batch, out_shape = _geometry(since, data.shape, indices.shape,
                                       scalar_input(inputs[2], label, "axis"), attributes)
    size = data.shape[axis]
    low = -size if since >= 8 else 0
    valid = (indices >= low) & (indices < size)
    safe = np.where(valid, np.where(indices < 0, indices + size, indices), 0)
    lead = data.shape[:batch]
    count = int(np.prod(lead, dtype=np.int64))
    flat_data = data.reshape((count, *data.shape[batch:]))
    flat_idx = safe.reshape((count, *indices.shape[batch:]))
    out = np.stack([np.take(flat_data[b], flat_idx[b], axis=axis - batch) for b in range(count)]) if count else \
        np.zeros((0, *out_shape[batch:]), dtype=data.dtype)
    out = out.reshape(out_shape)
    # where each index lands in the output: batch axes, data.shape[batch:axis], indices.shape[batch:], the rest
    spread = valid.reshape((*lead, *(1,) * (axis - batch), *indices.shape[batch:], *(1,) * (data.ndim - axis - 1)))
    outside = ~np.broadcast_to(spread, out_shape)
    if since >= 8:
        return [np.where(outside, np.zeros((), data.dtype), out).astype(data.dtype)], [None]
    return [out], [outside.copy() if outside.any() else None]
