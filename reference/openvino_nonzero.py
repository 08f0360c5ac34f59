"""OpenVINO NonZero-3: the indices of the non-zero elements of the input, in row-major order (nonzero-3.rst): an
output of shape ``[rank(input), num_non_zero]`` whose i-th column is the i-th non-zero element's index tuple (its
example: ``[[1, 0], [1, 1]]`` gives ``[[0, 1, 1], [0, 0, 1]]``). ``output_type`` i64 (default) or i32.

The output's second extent depends on the data's values: where shape inference is asked without them it answers -1,
the dynamic extent the page's own example writes (``<dim>-1</dim>``). Non-zero is ``x != 0``: NaN counts, -0 does not.
A 0-D input has rank 0: its output is ``[0, 1]`` or ``[0, 0]`` (the shape rule with rank 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._indexing import ANY_TYPE, data_input, inputs_count
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "NonZero", (3,),
    attributes=(Attribute("output_type", "enum", default="i64", values=("i64", "i32")),),
    inputs=(Port("data"),),
    outputs=(Port("output", dtype="int64", dtype_attribute="output_type", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    inputs_count(input_shapes, (1,), f"NonZero-{since}")
    attributes_of(SCHEMA, since, attributes)
    shape = tuple(input_shapes[0])
    if input_values is None or 0 not in input_values:
        return [(len(shape), -1)]
    return [(len(shape), int(np.count_nonzero(np.asarray(input_values[0]))))]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"NonZero-{since}"
    inputs_count(inputs, (1,), label)
    found = attributes_of(SCHEMA, since, attributes)
    x = data_input(inputs[0], label)
    dtype = np.int32 if found["output_type"] == "i32" else np.int64
    nonzero = x.astype(np.float64) != 0 if x.dtype.kind not in "iu" else x != 0
    where = np.argwhere(nonzero.reshape(x.shape))  # row-major: one row per non-zero element
    return [np.ascontiguousarray(where.T.astype(dtype)).reshape(x.ndim, where.shape[0])], [None]
