"""OpenVINO SegmentMax-16: the maximum of each segment of ``data``'s first axis (segment-max-16.rst). ``segment_ids``
(1-D, sorted, non-negative, int32/int64, one per row of data) names each row's segment; ``num_segments`` (optional
scalar, int32/int64) the output's first extent: smaller than max(segment_ids) + 1 drops the segments past it, larger
pads with empty ones, left out max(segment_ids) + 1. An empty segment is ``fill_mode``'s: ``ZERO`` 0, ``LOWEST`` the
lowest value of T (numeric_limits<T>::lowest(): -3.4e38 for float32, not -inf). ``fill_mode`` is required.

A copy of one of the values: exact. A segment holding a NaN is unspecified (the text says nothing of NaN, and a max
over it depends on the comparison order).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, data_input, inputs_count, integer_input, scalar_input, value_of
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "SegmentMax", (16,),
    attributes=(Attribute("fill_mode", "enum", values=("ZERO", "LOWEST"), required=True),),
    inputs=(Port("data"), Port("segment_ids", dtype="int64", dtypes=INDEX_TYPES),
            Port("num_segments", dtype="int64", dtypes=INDEX_TYPES, optional=True)),
    outputs=(Port("output"),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _count(since: int, data_shape: tuple[int, ...], ids: Any, num: Any, attributes: dict[str, Any]
           ) -> tuple[dict[str, Any], np.ndarray, int]:
    label = f"SegmentMax-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if not data_shape:
        raise SpecViolation(f"{label}: data has rank 0 (segments run along its first axis)")
    ids = integer_input(ids, label, "segment_ids", INDEX_TYPES)
    if ids.ndim != 1 or ids.shape[0] != data_shape[0]:
        raise SpecViolation(f"{label}: segment_ids is 1-D with data's first extent {data_shape[0]}, got shape "
                            f"{list(ids.shape)}")
    if (ids < 0).any() or (np.diff(ids) < 0).any():
        raise SpecViolation(f"{label}: segment_ids are sorted non-negative numbers, got {ids.tolist()}")
    if num is None:
        return found, ids, int(ids.max(initial=-1)) + 1
    if np.asarray(num).ndim != 0:
        raise SpecViolation(f"{label}: num_segments is a scalar, got shape {list(np.asarray(num).shape)}")
    count = scalar_input(num, label, "num_segments", INDEX_TYPES)
    if count < 0:
        raise SpecViolation(f"{label}: num_segments {count} is negative (a segment count)")
    return found, ids, count


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"SegmentMax-{since}"
    inputs_count(input_shapes, (2, 3), label)
    ids = value_of(input_values, 1, label, "segment_ids")
    num = value_of(input_values, 2, label, "num_segments") if len(input_shapes) == 3 else None
    _, _, count = _count(since, tuple(input_shapes[0]), ids, num, attributes)
    return [(count, *input_shapes[0][1:])]


def lowest(dtype: np.dtype) -> Any:
    """numeric_limits<T>::lowest(): the most negative finite value."""
    if dtype.kind in "iu":
        return np.iinfo(dtype).min
    return -ml_dtypes.finfo(dtype).max  # ml_dtypes' finfo knows bfloat16 too


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"SegmentMax-{since}"
    inputs_count(inputs, (2, 3), label)
    x = data_input(inputs[0], label)
    found, ids, count = _count(since, x.shape, inputs[1], inputs[2] if len(inputs) == 3 else None, attributes)
    fill = x.dtype.type(0) if found["fill_mode"] == "ZERO" else lowest(x.dtype)
    y = np.full((count, *x.shape[1:]), fill, dtype=x.dtype)
    unspecified = np.zeros(y.shape, bool)
    for s in range(count):
        rows = x[ids == s]
        if rows.shape[0]:
            y[s] = rows.max(axis=0)
            if x.dtype.kind not in "iu":
                unspecified[s] = np.isnan(rows.astype(np.float64)).any(axis=0)
    return [y], [unspecified if unspecified.any() else None]
