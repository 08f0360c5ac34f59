"""The members of an element-wise op whose value is a mapping NumPy computes exactly on the broadcast inputs
(comparisons, logical and bitwise ops, Select, Round, Convert) or on a wide type rounded once (the activations of
several inputs, Power, Atan2).

An op module declares its schema and gives two functions: ``shape(label, input_shapes, attributes)`` -> the
output shape and each input's shape as it aligns onto it (``same_shape``, ``auto_broadcast`` below), and
``value(label, arrays, attributes)`` -> (the output, where it is unspecified or None), the arrays already
broadcast to the output shape. Inputs are checked against the ports: a port of a fixed dtype (a ``boolean``
condition) must have it, the others are of the one type T of the version's constraint.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._binary import broadcast_shape
from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import Schema

Shape = Callable[[str, list[tuple[int, ...]], dict[str, Any]], tuple[tuple[int, ...], list[tuple[int, ...] | None]]]
Value = Callable[[str, list[np.ndarray], dict[str, Any]], tuple[np.ndarray, np.ndarray | None]]
Magnitude = Callable[[str, list[np.ndarray], dict[str, Any]], np.ndarray]


def type_name(x: np.ndarray) -> str:
    """The harness's name of an array's type (bool, bfloat16, float32, ...)."""
    return "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)


def same_shape(label: str, shapes: list[tuple[int, ...]], attributes: dict[str, Any]
               ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """An op of one tensor: the output has its shape."""
    return tuple(shapes[0]), [tuple(s) for s in shapes]


def auto_broadcast(label: str, shapes: list[tuple[int, ...]], attributes: dict[str, Any]
                   ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """Two tensors broadcast by the ``auto_broadcast`` attribute (none, numpy, pdpd: reference/_binary.py)."""
    out, aligned = broadcast_shape(label, tuple(shapes[0]), tuple(shapes[1]), attributes["auto_broadcast"])
    return out, [tuple(shapes[0]), tuple(aligned)]


def tensors(schema: Schema, since: int, inputs: list[Any]) -> list[np.ndarray]:
    """The inputs as the ports declare them: the required ones present, a fixed-dtype port of its dtype, every
    other of the one type T in the version's constraint; SpecViolation otherwise."""
    label = f"{schema.op}-{since}"
    ports = schema.inputs
    required = sum(1 for p in ports if not p.optional)
    if not required <= len(inputs) <= len(ports):
        raise SpecViolation(f"{label} takes {required} to {len(ports)} inputs, got {len(inputs)}")
    if not all(isinstance(x, np.ndarray) for x in inputs):
        raise SpecViolation(f"{label}: every input must be a tensor")
    allowed = schema.supported_dtypes(since)
    typed = []
    for port, x in zip(ports, inputs):
        name = type_name(x)
        if port.dtype is not None:
            if name != port.dtype and name not in port.dtypes:
                raise SpecViolation(f"{label}: input {port.name} is of type {port.dtype}, got {name}")
            continue
        if port.dtypes:  # a port of its own constraint (ConvertLike's like: any type)
            if name not in port.dtypes:
                raise SpecViolation(f"{label}: input {port.name} type {name} is not one of {list(port.dtypes)}")
            continue
        if name not in allowed:
            raise SpecViolation(f"{label}: input {port.name} type {name} is not in the type constraint "
                                f"{list(allowed)}")
        typed.append(name)
    if len(set(typed)) > 1:
        raise SpecViolation(f"{label}: the inputs of type T must share one type, got {typed}")
    return list(inputs)


def mapped(schema: Schema, shape: Shape, value: Value, magnitude: Magnitude | None = None,
           check: Callable[[str, dict[str, Any]], None] | None = None):
    """(output_shapes, evaluate, magnitude) of the element-wise op ``schema``; ``check(label, attributes)`` for
    what its text forbids beyond the attributes' kinds; ``magnitude`` the scale of an ulp bound (default |y|)."""

    def checked(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
        found = attributes_of(schema, since, attributes)
        if check is not None:
            check(f"{schema.op}-{since}", found)
        return found

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        label = f"{schema.op}-{since}"
        required = sum(1 for p in schema.inputs if not p.optional)
        if not required <= len(input_shapes) <= len(schema.inputs):
            raise SpecViolation(f"{label} takes {required} to {len(schema.inputs)} inputs, got {len(input_shapes)}")
        return [shape(label, [tuple(s) for s in input_shapes], checked(since, attributes))[0]]

    def _broadcast(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                   ) -> tuple[str, list[np.ndarray], dict[str, Any]]:
        label = f"{schema.op}-{since}"
        arrays = tensors(schema, since, inputs)
        found = checked(since, attributes)
        out, aligned = shape(label, [x.shape for x in arrays], found)
        # an input aligned as None takes no part in the shape (ConvertLike's like): passed as it is
        return label, [x if a is None else np.broadcast_to(x.reshape(a), out) for x, a in zip(arrays, aligned)], found

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        label, arrays, found = _broadcast(since, inputs, attributes)
        with np.errstate(all="ignore"):
            out, mask = value(label, arrays, found)
        out = np.asarray(out)  # NumPy's ufuncs return a scalar for 0-d operands
        mask = None if mask is None else np.broadcast_to(np.asarray(mask, dtype=bool), out.shape)
        return [out], [mask if mask is not None and mask.any() else None]

    def scale(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
        label, arrays, found = _broadcast(since, inputs, attributes)
        with np.errstate(all="ignore"):
            if magnitude is not None:
                return [np.asarray(magnitude(label, arrays, found), dtype=np.float64)]
            out = value(label, arrays, found)[0]
        return [np.abs(out.astype(np.float64))]

    return output_shapes, evaluate, scale
