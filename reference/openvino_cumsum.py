"""OpenVINO CumSum-3: cumulative sums along ``axis`` (cumsum-3.rst). Inclusive by default ("the j-th output element
is the inclusive sum of the first j elements ... the first element in the sequence is copied to the output as is");
``exclusive`` leaves the j-th element out (the first output 0); ``reverse`` sums from the end of the axis. ``axis`` (the
optional second input, a scalar of int32/int64, default 0, negative from the back); data of rank >= 1.

The value: float16, bfloat16 and float32 sums in float64, float64 sums in long double, each element rounded once; an
implementation's running sum is judged by the accumulation bound, K the axis length (``window_elements``). Integers
exactly; a sum the type cannot hold is unspecified (the text says nothing of overflow).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import INDEX_TYPES, inputs_count, normalized_axis, scalar_input
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "CumSum", (3,),
    attributes=(Attribute("exclusive", "bool", default=False), Attribute("reverse", "bool", default=False)),
    inputs=(Port("data"), Port("axis", dtype="int64", dtypes=INDEX_TYPES, optional=True)),
    outputs=(Port("output"),),
    types=((0, (*OV_FLOATS, *OV_INTEGERS)),),
)
VERSIONS = SCHEMA.versions


def _axis(since: int, shape: tuple[int, ...], axis: Any, attributes: dict[str, Any]) -> tuple[dict, int]:
    label = f"CumSum-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if not shape:
        raise SpecViolation(f"{label}: the input has rank 0 (rank >= 1 required)")
    value = 0 if axis is None else scalar_input(axis, label, "axis", INDEX_TYPES)
    if axis is not None and np.asarray(axis).ndim != 0:
        raise SpecViolation(f"{label}: axis is a scalar, got shape {list(np.asarray(axis).shape)}")
    return found, normalized_axis(value, len(shape), label)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"CumSum-{since}"
    inputs_count(input_shapes, (1, 2), label)
    if len(input_shapes) == 2 and (input_values is None or 1 not in input_values):
        raise SpecViolation(f"{label}: the axis value is needed")
    _axis(since, tuple(input_shapes[0]), input_values[1] if len(input_shapes) == 2 else None, attributes)
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: an output element sums at most the axis length of terms (the longest axis where the axis is unknown)."""
    shape = tuple(input_shapes[0])
    if len(input_shapes) == 2 and (input_values is None or 1 not in input_values):
        return max(shape, default=1)
    _, axis = _axis(since, shape, input_values[1] if len(input_shapes) == 2 else None, attributes)
    return max(int(shape[axis]), 1)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"CumSum-{since}"
    inputs_count(inputs, (1, 2), label)
    x = np.asarray(inputs[0])
    if x.dtype.name not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"{label}: data of type {x.dtype} is outside the type constraint")
    found, axis = _axis(since, x.shape, inputs[1] if len(inputs) == 2 else None, attributes)
    wide = x.astype(object) if x.dtype.kind in "iu" else x.astype(work_dtype(x.dtype))
    if found["reverse"]:
        wide = np.flip(wide, axis)
    sums = np.cumsum(wide, axis=axis)
    if found["exclusive"]:  # the j-th element left out: the inclusive sums shifted one place, 0 first
        head = np.zeros_like(np.take(sums, [0], axis=axis))
        sums = np.concatenate([head, np.take(sums, range(sums.shape[axis] - 1), axis=axis)], axis=axis)
    if found["reverse"]:
        sums = np.flip(sums, axis)
    if x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        flat = sums.reshape(-1)
        bad = np.array([not info.min <= int(v) <= info.max for v in flat], dtype=bool).reshape(x.shape)
        y = np.array([0 if b else int(v) for v, b in zip(flat, bad.reshape(-1))], dtype=x.dtype).reshape(x.shape)
        return [y], [bad if bad.any() else None]
    return [round_to(np.ascontiguousarray(sums), x.dtype)], [None]
