"""Shared pieces of OpenVINO's indexing family (Gather*, Scatter*, Slice, TopK, OneHot, ...): the type lists
their constraints name, integer inputs read as Python ints, axis normalization and index validity.

None of these ops computes anything but copies and integer arithmetic: values are moved, never rounded, so every
reference here is exact. Where an index lies outside the range a text states without saying what happens then,
the elements it reaches are unspecified (masked), never guessed (docs/spec-notes.md, "OpenVINO indexing").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ._errors import SpecViolation
from .schema import OV_FLOATS, OV_INTEGERS

#: "any supported type" / "any numeric type": the harness's floats and integers
ANY_TYPE = (*OV_FLOATS, *OV_INTEGERS)
#: "any supported integer type" of an index or axis input
INDEX_TYPES = ("int32", "int64")
INTEGER_TYPES = OV_INTEGERS


def integer_input(x: Any, label: str, what: str, allowed: tuple[str, ...] = OV_INTEGERS) -> np.ndarray:
    """An index/axis input as int64 (after checking it is of an allowed integer type)."""
    array = np.asarray(x)
    if array.dtype.name not in allowed:
        raise SpecViolation(f"{label}: {what} must be of an integer type {list(allowed)}, got {array.dtype}")
    return array.astype(np.int64)


def scalar_input(x: Any, label: str, what: str, allowed: tuple[str, ...] = OV_INTEGERS) -> int:
    """A "scalar or 1D tensor with one element" input as one int."""
    array = integer_input(x, label, what, allowed)
    if array.size != 1 or array.ndim > 1:
        raise SpecViolation(f"{label}: {what} is a scalar (or a 1-D tensor of one element), got shape "
                            f"{list(array.shape)}")
    return int(array.reshape(-1)[0])


def normalized_axis(axis: int, rank: int, label: str, what: str = "axis") -> int:
    """``axis`` in ``[-rank, rank - 1]`` made non-negative; ``SpecViolation`` outside."""
    if not -rank <= axis <= rank - 1:
        raise SpecViolation(f"{label}: {what} {axis} is outside [{-rank}, {rank - 1}]")
    return axis + rank if axis < 0 else axis


def value_of(input_values: dict[int, np.ndarray] | None, port: int, label: str, what: str) -> np.ndarray:
    """The value of a shape-determining input; ``LookupError`` where it is not given (the shape cannot be told
    without it: no rejection of the case)."""
    if input_values is None or port not in input_values:
        raise LookupError(f"{label}: the output shape depends on the value of {what} (input {port + 1})")
    return np.asarray(input_values[port])


def data_input(x: Any, label: str, allowed: tuple[str, ...] = ANY_TYPE) -> np.ndarray:
    array = np.asarray(x)
    if array.dtype.name not in allowed:
        raise SpecViolation(f"{label}: data of type {array.dtype} is outside the type constraint {list(allowed)}")
    return array


def inputs_count(inputs: list[Any], counts: tuple[int, ...], label: str) -> None:
    if len(inputs) not in counts:
        raise SpecViolation(f"{label} takes {' or '.join(map(str, counts))} inputs, got {len(inputs)}")


def scatter(data: np.ndarray, targets: list[np.ndarray], values: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """A copy of ``data`` with ``values`` written at ``targets`` (one index array per data axis, each of the
    values' shape), and the mask of the elements written more than once with differing values: the scatter texts
    leave the order of such writes undefined ("the order of updating the values is undefined"), so those elements
    are unspecified; one written twice with one value is not."""
    out = data.copy()
    flat = np.ravel_multi_index(tuple(t.reshape(-1) for t in targets), data.shape) if data.size else \
        np.zeros(0, dtype=np.int64)
    written = values.reshape(-1)
    out.reshape(-1)[flat] = written  # any order: a conflicting element is masked below
    mask = np.zeros(data.size, dtype=bool)
    first: dict[int, Any] = {}
    for where, value in zip(flat.tolist(), written.tolist()):
        if where in first and not (first[where] == value or (first[where] != first[where] and value != value)):
            mask[where] = True
        first.setdefault(where, value)
    return out, (mask.reshape(data.shape) if mask.any() else None)


#: an ``output_type`` attribute's OpenVINO element type name -> the NumPy-style dtype name
OV_TYPE_NAMES = {"f16": "float16", "f32": "float32", "f64": "float64", "bf16": "bfloat16", "i8": "int8", "i16": "int16",
                 "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64"}


def scatter_reduce(data: np.ndarray, targets: list[np.ndarray], values: np.ndarray, reduction: str,
                   use_init: bool = True, last_wins: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """A scatter whose writes to one element combine by ``reduction`` (none, sum, sub, prod, min, max, mean), the
    element's data value first unless ``use_init`` is false. Each result is exact (rationals, Python ints) and
    rounded once: the texts' reductions commute but for rounding, so order does not matter except for ``none``,
    where ``last_wins`` (ScatterNDUpdate-14: "only last update ... is used") or differing values are unspecified. A
    mean of integers is rounded down ("towards negative infinity"); an integer result the type cannot hold, a
    min/max over NaN and a non-finite sum are unspecified."""
    if reduction == "none" and not last_wins:
        return scatter(data, targets, values)
    out = data.copy()
    flat_out, mask = out.reshape(-1), np.zeros(data.size, dtype=bool)
    flat = np.ravel_multi_index(tuple(t.reshape(-1) for t in targets), data.shape) if data.size else []
    groups: dict[int, list[Any]] = {}
    for where, value in zip(np.asarray(flat).tolist(), values.reshape(-1).tolist()):
        groups.setdefault(where, []).append(value)
    integer = data.dtype.kind in "iu"
    for where, written in groups.items():
        if reduction == "none":
            flat_out[where] = written[-1]
            continue
        terms = ([flat_out[where].item()] if use_init else []) + written
        if not all(math.isfinite(t) for t in terms):
            mask[where] = True
            continue
        exact = [Fraction(t) for t in terms]
        if reduction in ("sum", "sub", "mean"):
            sign = -1 if reduction == "sub" else 1
            total = exact[0] + sign * sum(exact[1:]) if reduction == "sub" else sum(exact)
            result = total / len(exact) if reduction == "mean" else total
            if reduction == "mean" and integer:
                result = Fraction(math.floor(result))
        elif reduction == "prod":
            result = math.prod(exact)
        else:
            result = min(exact) if reduction == "min" else max(exact)
        if integer:
            info = np.iinfo(data.dtype)
            if not info.min <= result <= info.max:
                mask[where] = True
                continue
            flat_out[where] = int(result)
        else:
            flat_out[where] = float(result)  # float64 first, then the dtype's rounding (far below an ulp of it)
    return out, (mask.reshape(data.shape) if mask.any() else None)


#: ``(since, shapes of data, indices, updates, the axis value, attributes) -> the axis`` after an op's own checks
AxisCheck = Callable[[int, list[tuple[int, ...]], int, dict[str, Any]], int]


def axis_scatter_shapes(label: str, since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                        input_values: dict[int, np.ndarray] | None, check: AxisCheck) -> list[tuple[int, ...]]:
    """The output shape of a scatter along an ``axis`` input (data, indices, updates, axis): data's, once the op's
    ``check`` holds for the axis value (ScatterUpdate, ScatterElementsUpdate)."""
    inputs_count(input_shapes, (4,), label)
    if input_values is None or 3 not in input_values:
        raise SpecViolation(f"{label}: the axis value is needed (the updates' layout depends on it)")
    check(since, input_shapes, scalar_input(input_values[3], label, "axis"), attributes)
    return [tuple(input_shapes[0])]


def axis_scatter_inputs(label: str, since: int, inputs: list[np.ndarray], attributes: dict[str, Any],
                        check: AxisCheck) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(data, indices, updates, axis) of a scatter along an ``axis`` input, each checked: updates of data's type T,
    integer indices, and the op's ``check`` of the axis value."""
    inputs_count(inputs, (4,), label)
    data = data_input(inputs[0], label)
    indices = integer_input(inputs[1], label, "indices")
    updates = np.asarray(inputs[2])
    if updates.dtype != data.dtype:
        raise SpecViolation(f"{label}: updates of type {updates.dtype}, data of {data.dtype} (one type T)")
    axis = check(since, [data.shape, indices.shape, updates.shape], scalar_input(inputs[3], label, "axis"), attributes)
    return data, indices, updates, axis
