"""OpenVINO GatherND-5 and GatherND-8: ``output[i_0, ..., i_{K-2}, :, ..., :] = data[indices[i_0, ..., i_{K-2}],
:, ..., :]`` (gather-nd-8.rst), the first ``batch_dims`` axes of data and indices walked together.

The two versions gather the same values and differ in the output's shape when ``batch_dims`` > 0:
- GatherND-8: ``indices.shape[:b] + indices.shape[b:-1] + data.shape[b + indices.shape[-1]:]``;
- GatherND-5: ``(multiplication of indices.shape[:b]) + indices.shape[b:-1] + data.shape[(indices.shape[-1] +
  b):]``: the batch axes flattened into one (its example 6: shape (6, 1) where -8 prints (2, 3, 1)). Its note
  calls that shape "incorrect for non-default batch_dims value greater than one" and sends the reader to -8; the
  formula is still the text of -5 and is what -5's own XML example claims ([60, 3, 35]), so it is the reference.
  With b = 0, -5's shape is ``indices.shape[:-1] + data.shape[indices.shape[-1]:]``, as -8's. Both of -5's XML
  examples write ``<data batch_dims=0 />`` unquoted (read leniently, an erratum).

``indices.shape[-1] <= data.rank - b`` (the tuple addresses axes after the batch ones), ``b`` in ``[0,
min(data.rank, indices.rank))``, both ranks >= 1, the first b axes equal. Indices are "required" to be in ``[0, s -
1]``: the text says nothing of others, so the elements such a tuple reaches are unspecified.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INTEGER_TYPES, data_input, inputs_count, integer_input
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "GatherND", (5, 8),
    attributes=(Attribute("batch_dims", "int", default=0),),
    inputs=(Port("data"), Port("indices", dtype="int64", dtypes=INTEGER_TYPES)),
    outputs=(Port("output", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _geometry(since: int, data: tuple[int, ...], indices: tuple[int, ...], attributes: dict[str, Any]
              ) -> tuple[int, int, tuple[int, ...]]:
    """(b, the tuple length, the output shape of the version)."""
    label = f"GatherND-{since}"
    batch = int(attributes_of(SCHEMA, since, attributes)["batch_dims"])
    if not data or not indices:
        raise SpecViolation(f"{label}: data and indices have rank >= 1, got {list(data)} and {list(indices)}")
    if not 0 <= batch < min(len(data), len(indices)):
        raise SpecViolation(f"{label}: batch_dims {batch} is outside [0, {min(len(data), len(indices))})")
    if data[:batch] != indices[:batch]:
        raise SpecViolation(f"{label}: the first {batch} axes of data {list(data)} and indices {list(indices)} differ")
    depth = indices[-1]
    if depth > len(data) - batch:
        raise SpecViolation(f"{label}: indices.shape[-1] = {depth} exceeds data.rank - batch_dims = "
                            f"{len(data) - batch}")
    lead = (int(np.prod(indices[:batch], dtype=np.int64)),) if since < 8 and batch > 0 else indices[:batch]
    return batch, depth, (*lead, *indices[batch:-1], *data[batch + depth:])


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    inputs_count(input_shapes, (2,), f"GatherND-{since}")
    return [_geometry(since, tuple(input_shapes[0]), tuple(input_shapes[1]), attributes)[2]]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"GatherND-{since}"
    inputs_count(inputs, (2,), label)
    data = data_input(inputs[0], label)
    indices = integer_input(inputs[1], label, "indices")
    batch, depth, out_shape = _geometry(since, data.shape, indices.shape, attributes)
    count = int(np.prod(data.shape[:batch], dtype=np.int64))
    sizes = np.array(data.shape[batch:batch + depth], dtype=np.int64)
    tuples = indices.reshape((count, -1, depth))  # per batch: every tuple
    slices = data.reshape((count, *data.shape[batch:]))
    rest = data.shape[batch + depth:]
    out = np.zeros((count, tuples.shape[1], *rest), dtype=data.dtype)
    bad = np.zeros((count, tuples.shape[1]), dtype=bool)
    for b in range(count):
        for t in range(tuples.shape[1]):
            where = tuples[b, t]
            if np.any(where < 0) or np.any(where >= sizes):
                bad[b, t] = True
                continue
            out[b, t] = slices[b][tuple(int(i) for i in where)]
    mask = np.broadcast_to(bad.reshape((count, tuples.shape[1], *(1,) * len(rest))), out.shape)
    return [out.reshape(out_shape)], [mask.reshape(out_shape).copy() if mask.any() else None]
