"""OpenVINO AdaptiveAvgPool-8 (domain openvino).

Output element i along an axis averages input[floor(i*in/out) : ceil((i+1)*in/out)]; windows of
neighbouring outputs may overlap and never are empty when the input extent is >= 1.  The spatial output
size comes from the second input (int32 or int64).  The example's `output_type` attribute is an
erratum (the op has no attributes); it is rejected like any unknown attribute.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._errors import SpecViolation, check_float_input, check_rank, check_unknown_attributes
from ._windows import to_dtype
from .schema import OV_FLOATS, Port, Schema, pooled

OP = "AdaptiveAvgPool"
SCHEMA = Schema("openvino", OP, (8,), inputs=(Port("data"), Port("output_size", dtypes=("int32", "int64"))),
                outputs=(Port("output"),),
                types=((0, OV_FLOATS),), axes=pooled())
VERSIONS = SCHEMA.versions


def _output_size(since: int, shape: tuple[int, ...], attributes: dict[str, Any], value: Any) -> list[int]:
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), f"{OP}-{since}")
    check_rank(shape, 3, 5)
    if value is None:
        raise ValueError(f"{OP}-{since}: the value of input 1 (output_size) is needed to infer the output shape")
    size = np.asarray(value)
    if size.dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise SpecViolation(f"{OP}-{since}: output_size must be int32 or int64, got {size.dtype}")
    if size.ndim != 1 or size.shape[0] != len(shape) - 2:
        raise SpecViolation(
            f"{OP}-{since}: output_size must be a 1-D tensor of {len(shape) - 2} values, got shape {size.shape}"
        )
    if (size <= 0).any():
        raise SpecViolation(f"{OP}-{since}: output_size values must be positive, got {size.tolist()}")
    return [int(v) for v in size]


def _bounds(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(out, dtype=np.int64)
    start = (i * size) // out  # floor(i * in / out), exact in integers
    end = -((-(i + 1) * size) // out)  # ceil((i + 1) * in / out)
    return start, end


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    shape = tuple(input_shapes[0])
    if len(input_shapes) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs, got {len(input_shapes)}")
    out = _output_size(since, shape, attributes, (input_values or {}).get(1))
    return [(*shape[:2], *out)]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    shape = tuple(input_shapes[0])
    out = _output_size(since, shape, attributes, (input_values or {}).get(1))
    return math.prod(int((e - s).max()) for s, e in (_bounds(n, o) for n, o in zip(shape[2:], out)))


def _sum_axis(x: np.ndarray, ax: int, size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """Sum of the variable-length windows along one axis: a loop over window offsets, not outputs."""
    start, end = _bounds(size, out)
    length = end - start
    shape = list(x.shape)
    shape[ax] = out
    acc = np.zeros(shape, dtype=np.float64)
    bshape = [1] * x.ndim
    bshape[ax] = out
    for j in range(int(length.max(initial=0))):
        part = np.take(x, np.minimum(start + j, size - 1), axis=ax)
        valid = j < length
        acc += part if valid.all() else np.where(valid.reshape(bshape), part, 0.0)
    return acc, length


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs (data, output_size), got {len(inputs)}")
    x = inputs[0]
    check_float_input(x)
    out = _output_size(since, x.shape, attributes, inputs[1])
    acc = x.astype(np.float64)
    div = np.ones([1] * len(out), dtype=np.int64)
    for i, (n, o) in enumerate(zip(x.shape[2:], out)):
        acc, length = _sum_axis(acc, 2 + i, n, o)
        shape = [1] * len(out)
        shape[i] = o
        div = div * length.reshape(shape)
    empty = div == 0  # only for an empty input extent
    with np.errstate(invalid="ignore", divide="ignore"):
        acc /= div
    if empty.any():
        acc[..., empty] = np.nan
        return [to_dtype(acc, x.dtype)], [np.broadcast_to(empty, acc.shape).copy()]
    return [to_dtype(acc, x.dtype)], [None]
