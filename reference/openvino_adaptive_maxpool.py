"""OpenVINO AdaptiveMaxPool-8 (domain openvino).

Output element i along an axis is the maximum of input[floor(i*in/out) : ceil((i+1)*in/out)] (AdaptiveAvgPool's
window bounds, reference/openvino_adaptive_avgpool.py); the second output holds its index "computed as if input
spatial dimensions were flatten" ([0, D*H*W): per (n, c) plane), of type index_element_type (i64 default, or
i32). The output_size input (int32/int64) fixes the spatial output extent. Choices (docs/spec-notes.md): a
window holding a NaN is unspecified (value NaN, index -1); ties go to the first maximum in row-major tap order,
any equal tap is an acceptable index. The example's `output_type` attribute is an erratum (the op's attribute is
index_element_type); it is rejected like any unknown attribute.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._errors import SpecViolation, check_float_input, check_rank, check_unknown_attributes, enum_attr
from ._maxwindows import tap_positions
from .openvino_adaptive_avgpool import _bounds
from .openvino_adaptive_avgpool import _output_size as _avg_output_size
from .openvino_maxpool import INDEX_TYPES, select
from .schema import OV_FLOATS, Attribute, Port, Schema, pooled

OP = "AdaptiveMaxPool"
SCHEMA = Schema(
    "openvino", OP, (8,),
    attributes=(Attribute("index_element_type", "enum", default="i64", values=tuple(INDEX_TYPES)),),
    inputs=(Port("data"), Port("output_size", dtypes=("int32", "int64"))),
    outputs=(Port("output"), Port("indices", dtype="int64", of_values=0, dtype_attribute="index_element_type")),
    types=((0, OV_FLOATS),),
    axes=pooled(),
)
VERSIONS = SCHEMA.versions


def _output_size(since: int, shape: tuple[int, ...], attributes: dict[str, Any], value: Any) -> list[int]:
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), f"{OP}-{since}")
    enum_attr(attributes.get("index_element_type", "i64"), "index_element_type", tuple(INDEX_TYPES))
    check_rank(shape, 3, 5)
    if value is None:
        raise ValueError(f"{OP}-{since}: the value of input 1 (output_size) is needed to infer the output shape")
    # AdaptiveAvgPool's checks (T_SHAPE int32/int64, 1-D, one positive value per spatial axis); no attributes
    return [int(v) for v in _avg_output_size(since, shape, {}, value)]


def _windows(sizes: Sequence[int], out: Sequence[int]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    positions, valid = [], []
    for n, o in zip(sizes, out):
        start, end = _bounds(n, o)
        taps = np.arange(int((end - start).max(initial=1)), dtype=np.int64)
        positions.append(start[:, None] + taps[None, :])
        valid.append(taps[None, :] < (end - start)[:, None])
    return positions, valid


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    shape = tuple(input_shapes[0])
    if len(input_shapes) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs, got {len(input_shapes)}")
    out = _output_size(since, shape, attributes, (input_values or {}).get(1))
    y = (*shape[:2], *out)
    return [y, y]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    shape = tuple(input_shapes[0])
    out = _output_size(since, shape, attributes, (input_values or {}).get(1))
    return math.prod(int((e - s).max()) for s, e in (_bounds(n, o) for n, o in zip(shape[2:], out)))


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs (data, output_size), got {len(inputs)}")
    x = inputs[0]
    check_float_input(x)
    out = _output_size(since, x.shape, attributes, inputs[1])
    index_dtype = INDEX_TYPES[attributes.get("index_element_type", "i64")]
    # spatial flattening = the whole-input index mod D*H*W, i.e. MaxPool-8's axis 2
    y, indices, value_mask, index_mask = select(x, *_windows(x.shape[2:], out), 2, index_dtype)
    return [y, indices], [value_mask, index_mask]


def window_taps(
    since: int, input_shape: Sequence[int], attributes: dict[str, Any], input_values: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """(every tap's spatial index, the same taps as row-major positions into the input), -1 past a window's end."""
    shape = tuple(int(d) for d in input_shape)
    out = _output_size(since, shape, attributes, (input_values or {}).get(1))
    positions = tap_positions(shape, *_windows(shape[2:], out))
    plane = math.prod(shape[2:])
    return np.where(positions >= 0, positions % plane, np.int64(-1)), positions

