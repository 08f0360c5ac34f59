"""ONNX GlobalAveragePool, since versions 1 and 22 (22 adds bfloat16; semantics unchanged).

"Equivalent to AveragePool with kernel size equal to the spatial dimension of input tensor":
one window per channel covering every spatial element, no padding.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._errors import check_rank, check_unknown_attributes, one_float_input
from ._global_windows import shape_functions
from ._windows import to_dtype
from .schema import Port, Schema, onnx_float_types, pooled

OP = "GlobalAveragePool"
SCHEMA = Schema("ai.onnx", OP, (1, 22), inputs=(Port("X"),), outputs=(Port("Y"),),
                types=onnx_float_types(), axes=pooled())
VERSIONS = SCHEMA.versions


def _check(since: int, shape: tuple[int, ...], attributes: dict[str, Any]) -> None:
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), f"{OP}-{since}")
    check_rank(shape, 3, None)


output_shapes, window_elements = shape_functions(_check)


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x = one_float_input(OP, since, inputs)
    _check(since, x.shape, attributes)
    spatial = tuple(range(2, x.ndim))
    count = math.prod(x.shape[2:])
    acc = x.astype(np.float64).sum(axis=spatial, keepdims=True)
    if count == 0:  # an empty spatial extent has no average
        acc[...] = np.nan
        return [acc.astype(x.dtype)], [np.ones(acc.shape, dtype=bool)]
    return [to_dtype(acc / count, x.dtype)], [None]
