"""OpenVINO Eye-9: matrices (a batch of them) with ones on one diagonal and zeros elsewhere (eye-9.rst):
``output[..., i, i + diagonal_index] = 1``, shape ``batch_shape + [num_rows, num_columns]``, of the ``output_type``.

``num_rows``, ``num_columns`` (non-negative) and ``diagonal_index`` are scalars or 1-D tensors of one element,
``batch_shape`` an optional 1-D tensor of non-negative values (default empty: one matrix), all int32/int64. The
formula is the reference; the page's sentence on all-zero matrices ("positive and not smaller than num_rows ...
negative and not larger than num_columns") contradicts it and its own example 2 (diagonal -1 has ones), and is
noted as an erratum (docs/spec-notes.md). The data type under test is the output's: each case's ``output_type`` names
its dtype.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, OV_TYPE_NAMES, inputs_count, integer_input, scalar_input
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "Eye", (9,),
    attributes=(Attribute("output_type", "enum", values=tuple(OV_TYPE_NAMES), required=True),),
    inputs=(Port("num_rows", dtype="int64", dtypes=INDEX_TYPES), Port("num_columns", dtype="int64", dtypes=INDEX_TYPES),
            Port("diagonal_index", dtype="int64", dtypes=INDEX_TYPES),
            Port("batch_shape", dtype="int64", dtypes=INDEX_TYPES, optional=True)),
    outputs=(Port("output", dtype_attribute="output_type", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _geometry(since: int, values: list[Any], attributes: dict[str, Any]) -> tuple[str, int, int, int, tuple]:
    label = f"Eye-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    rows, columns, diagonal = (scalar_input(v, label, name, INDEX_TYPES)
                               for v, name in zip(values[:3], ("num_rows", "num_columns", "diagonal_index")))
    batch: tuple[int, ...] = ()
    if len(values) > 3:
        shape = integer_input(values[3], label, "batch_shape", INDEX_TYPES)
        if shape.ndim != 1:
            raise SpecViolation(f"{label}: batch_shape is 1-D, got shape {list(shape.shape)}")
        batch = tuple(int(v) for v in shape)
    if rows < 0 or columns < 0 or any(b < 0 for b in batch):
        raise SpecViolation(f"{label}: num_rows {rows}, num_columns {columns}, batch_shape {list(batch)} must be "
                            "non-negative")
    return OV_TYPE_NAMES[found["output_type"]], rows, columns, diagonal, batch


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"Eye-{since}"
    inputs_count(input_shapes, (3, 4), label)
    if input_values is None or any(p not in input_values for p in range(len(input_shapes))):
        raise SpecViolation(f"{label}: the output shape depends on the values of its inputs")
    _, rows, columns, _, batch = _geometry(since, [input_values[p] for p in range(len(input_shapes))], attributes)
    return [(*batch, rows, columns)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"Eye-{since}"
    inputs_count(inputs, (3, 4), label)
    dtype, rows, columns, diagonal, batch = _geometry(since, list(inputs), attributes)
    matrix = np.zeros((rows, columns), dtype=np.float64)
    for i in range(rows):
        if 0 <= i + diagonal < columns:
            matrix[i, i + diagonal] = 1
    out = np.broadcast_to(matrix, (*batch, rows, columns))
    return [np.ascontiguousarray(out.astype(ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)))], [None]
