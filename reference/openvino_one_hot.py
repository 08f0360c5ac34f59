"""OpenVINO OneHot-1 and OneHot-16 (one-hot-16.rst)::

    output[:, ..., :, i, :, ..., :] = on_value if (indices[:, ..., :, :, ..., :] == i) else off_value

``i`` at the position ``axis`` of the output (rank N + 1; negative from the end), in ``[0, depth - 1]``. An index
>= depth "is a well-formed operation": its row is all off_value. Negative indices: -1 says "behavior for negative
indices is undefined" (their rows unspecified); -16's ``negative_indices_mode`` ``ignore-negative`` (default) fills
their rows with off_value, ``normalize`` maps ``[-depth, -1]`` to ``depth + index`` (below -depth: off_value, as its
own example's -5 shows). ``depth`` is a positive scalar of T1 (int32/int64, the indices' type); ``on_value`` and
``off_value`` are scalars of one type T2, the output's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, inputs_count, integer_input, normalized_axis, value_of
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "OneHot", (1, 16),
    attributes=(Attribute("axis", "int", required=True),
                Attribute("negative_indices_mode", "enum", default="ignore-negative",
                          values=("ignore-negative", "normalize"), since=16)),
    inputs=(Port("indices", dtype="int64", dtypes=INDEX_TYPES), Port("depth", dtype="int64", dtypes=INDEX_TYPES),
            Port("on_value"), Port("off_value")),
    outputs=(Port("output", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _depth_axis(since: int, indices: tuple[int, ...], depth: np.ndarray, attributes: dict[str, Any],
                indices_dtype: str | None = None) -> tuple[dict, int, int]:
    label = f"OneHot-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    value = integer_input(depth, label, "depth", INDEX_TYPES)
    if value.ndim != 0:
        raise SpecViolation(f"{label}: depth is a 0-D tensor, got shape {list(value.shape)}")
    if indices_dtype is not None and np.asarray(depth).dtype.name != indices_dtype:
        raise SpecViolation(f"{label}: depth of {np.asarray(depth).dtype}, indices of {indices_dtype} (one type T1)")
    if int(value) <= 0:
        raise SpecViolation(f"{label}: depth {int(value)} is not positive")
    axis = normalized_axis(int(found["axis"]), len(indices) + 1, label)
    return found, int(value), axis


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"OneHot-{since}"
    inputs_count(input_shapes, (4,), label)
    indices = tuple(input_shapes[0])
    _, depth, axis = _depth_axis(since, indices, value_of(input_values, 1, label, "depth"), attributes)
    return [(*indices[:axis], depth, *indices[axis:])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"OneHot-{since}"
    inputs_count(inputs, (4,), label)
    raw = np.asarray(inputs[0])
    indices = integer_input(raw, label, "indices", INDEX_TYPES)
    found, depth, axis = _depth_axis(since, indices.shape, inputs[1], attributes, raw.dtype.name)
    on, off = np.asarray(inputs[2]), np.asarray(inputs[3])
    if on.ndim or off.ndim or on.dtype != off.dtype or on.dtype.name not in ANY_TYPE:
        raise SpecViolation(f"{label}: on_value and off_value are scalars of one type T2, got "
                            f"{on.dtype}{list(on.shape)} and {off.dtype}{list(off.shape)}")
    where = indices.copy()
    undefined = np.zeros(indices.shape, dtype=bool)
    if since >= 16 and found["negative_indices_mode"] == "normalize":
        where = np.where((indices < 0) & (indices >= -depth), indices + depth, indices)
    elif since < 16:
        undefined = indices < 0
    classes = np.arange(depth).reshape((depth,) + (1,) * indices.ndim)
    hot = np.moveaxis(classes == where[None], 0, axis)
    out = np.where(hot, on, off).astype(on.dtype)
    mask = np.moveaxis(np.broadcast_to(undefined[None], (depth, *indices.shape)), 0, axis)
    return [out], [mask.copy() if mask.any() else None]
