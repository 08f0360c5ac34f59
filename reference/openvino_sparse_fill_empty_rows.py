"""OpenVINO SparseFillEmptyRows-16: a 2-D sparse tensor (``indices`` [M, 2], ``values`` [M], ``dense_shape`` [2])
with every empty row given one entry ``default_value`` at [row, 0] (fill-empty-rows-16.rst, tf.raw_ops'
SparseFillEmptyRows). Outputs: ``output_indices`` [M', 2] (T_IDX, the indices' type) and ``output_values`` [M']
"in row-major order" (sorted by row, then column; entries at one position keep their input order), and
``empty_row_indicator`` [dense_shape[0]] (boolean): whether the row was empty.

M' depends on the values of indices and dense_shape: asked without them, shape inference answers -1. Indices are
"non-negative"; one past dense_shape names no position of the 2-D tensor: both refused. Exact (a copy).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, data_input, inputs_count, integer_input
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "SparseFillEmptyRows", (16,),
    inputs=(Port("values"), Port("dense_shape", dtype="int64", dtypes=INDEX_TYPES),
            Port("indices", dtype="int64", dtypes=INDEX_TYPES), Port("default_value")),
    outputs=(Port("output_indices", dtype="int64", rank_of=None), Port("output_values", rank_of=None),
             Port("empty_row_indicator", dtype="bool", rank_of=None)),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _shapes(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> None:
    label = f"SparseFillEmptyRows-{since}"
    inputs_count(shapes, (4,), label)
    attributes_of(SCHEMA, since, attributes)
    values, dense, indices, default = (tuple(s) for s in shapes)
    if len(values) != 1 or dense != (2,) or len(indices) != 2 or indices[1] != 2 or indices[0] != values[0]:
        raise SpecViolation(f"{label}: values [M], dense_shape [2] and indices [M, 2], got {list(values)}, "
                            f"{list(dense)}, {list(indices)}")
    if default != ():
        raise SpecViolation(f"{label}: default_value is a scalar, got shape {list(default)}")


def _plan(since: int, dense: Any, indices: Any) -> tuple[np.ndarray, list[int], np.ndarray]:
    """(the indices as int64, the row-major order of the entries, which rows are empty)."""
    label = f"SparseFillEmptyRows-{since}"
    rows, columns = (int(v) for v in integer_input(dense, label, "dense_shape", INDEX_TYPES))
    at = integer_input(indices, label, "indices", INDEX_TYPES)
    if rows < 0 or columns < 0:
        raise SpecViolation(f"{label}: dense_shape {[rows, columns]} is negative")
    if (at < 0).any() or (at[:, 0] >= rows).any() or (at[:, 1] >= columns).any():
        raise SpecViolation(f"{label}: indices {at.tolist()} fall outside [0, {rows}) x [0, {columns})")
    order = sorted(range(at.shape[0]), key=lambda k: (int(at[k, 0]), int(at[k, 1])))  # stable: ties keep order
    empty = np.ones(rows, bool)
    empty[at[:, 0]] = False
    return at, order, empty


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _shapes(since, input_shapes, attributes)
    if input_values is None or 1 not in input_values or 2 not in input_values:
        return [(-1, 2), (-1,), (-1,)]
    at, _, empty = _plan(since, input_values[1], input_values[2])
    count = at.shape[0] + int(empty.sum())
    return [(count, 2), (count,), (empty.shape[0],)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"SparseFillEmptyRows-{since}"
    _shapes(since, [np.shape(x) for x in inputs], attributes)
    values = data_input(inputs[0], label)
    default = np.asarray(inputs[3])
    if default.dtype != values.dtype:
        raise SpecViolation(f"{label}: default_value is of T ({values.dtype}), got {default.dtype}")
    at, order, empty = _plan(since, inputs[1], inputs[2])
    entries = [((int(at[k, 0]), int(at[k, 1])), values[k]) for k in order]
    entries += [((row, 0), default[()]) for row in np.flatnonzero(empty).tolist()]
    entries.sort(key=lambda e: e[0][0])  # stable: the filled entry is its row's only one
    index_type = np.asarray(inputs[2]).dtype
    out_indices = np.array([p for p, _ in entries], dtype=index_type).reshape(len(entries), 2)
    out_values = np.array([v for _, v in entries], dtype=values.dtype).reshape(len(entries))
    return [out_indices, out_values, empty], [None, None, None]
