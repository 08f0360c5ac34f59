"""The members of an element-wise op of two tensors (OpenVINO Add, Subtract, Multiply, Maximum, ...): the
``auto_broadcast`` rules of the spec's broadcast-rules page, and the formula rounded once.

* ``none``: the shapes must match. ``numpy``: right-aligned, a dimension of 1 stretches (NumPy's rules).
* ``pdpd``: B onto A only — B's rank at most A's, B (its trailing 1s ignored) a continuous subsequence of A's
  dimensions from ``axis`` = rank(A) - rank(B) (the default, -1: the op has no axis attribute); a dimension of 1
  in B stretches. The output has A's shape.

The value: floating-point inputs computed in float64 and rounded once to the type (float32, float16 and bfloat16:
exact for +, -, * and one rounding, since 53 >= 2p + 2 makes the double rounding innocuous); float64 inputs in
exact rationals (long double is too narrow for that), integers in Python ints, a result the type cannot hold
unspecified (the texts say nothing of overflow).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._windows import to_dtype
from .schema import Attribute, Schema

#: the auto_broadcast attribute every element-wise op of two tensors has (broadcast-rules page)
AUTO_BROADCAST = Attribute("auto_broadcast", "enum", default="numpy", values=("none", "numpy", "pdpd"))

#: (a, b) on Python numbers (Fractions for floats, ints for integers) -> the exact result (None: no value)
Exact = Callable[[Any, Any], Any]
#: (a, b) as float64 arrays -> the result (the float32/float16/bfloat16 path, one rounding after)
Wide = Callable[[np.ndarray, np.ndarray], np.ndarray]


def broadcast_shape(label: str, a: tuple[int, ...], b: tuple[int, ...], mode: str) -> tuple[tuple[int, ...], tuple]:
    """(the output shape, B's shape as it aligns onto A's rank for pdpd, else B's own)."""
    if mode == "none":
        if a != b:
            raise SpecViolation(f"{label}: auto_broadcast none needs equal shapes, got {list(a)} and {list(b)}")
        return a, b
    if mode == "numpy":
        try:
            return tuple(np.broadcast_shapes(a, b)), b
        except ValueError:
            raise SpecViolation(f"{label}: shapes {list(a)} and {list(b)} do not broadcast (numpy rules)") from None
    if len(b) > len(a):
        raise SpecViolation(f"{label}: pdpd broadcasts B onto A only: B's rank {len(b)} exceeds A's {len(a)}")
    axis = len(a) - len(b)
    core = list(b)
    while core and core[-1] == 1:  # "The trailing dimensions of size 1 for input B will be ignored"
        core.pop()
    aligned = [1] * axis + core + [1] * (len(a) - axis - len(core))
    if any(d not in (1, n) for d, n in zip(aligned, a)):
        raise SpecViolation(f"{label}: B {list(b)} is no continuous subsequence of A {list(a)} from axis {axis} "
                            "(pdpd rules)")
    return a, tuple(aligned)


def two_tensors(schema: Schema, since: int, inputs: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The two inputs of an op whose both inputs are of type T (the element-wise ops of two tensors, MatMul):
    tensors, of one type, in the version's type constraint; SpecViolation otherwise."""
    label = f"{schema.op}-{since}"
    if len(inputs) != 2 or not all(isinstance(x, np.ndarray) for x in inputs):
        raise SpecViolation(f"{label} takes two tensors")
    a, b = inputs
    if a.dtype != b.dtype:
        raise SpecViolation(f"{label}: both inputs are of type T, got {a.dtype} and {b.dtype}")
    name = "bfloat16" if a.dtype.name == "bfloat16" else str(a.dtype)
    if name not in schema.supported_dtypes(since):
        raise SpecViolation(f"{label}: input type {name} is not in the type constraint")
    return a, b


def nan_operand(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where either operand is NaN (a float type's; integers have none): for Maximum and Minimum, whose texts do not
    say which of IEEE 754's maximum (NaN) and maximumNumber (the number) is meant."""
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return np.isnan(a.astype(np.float64)) | np.isnan(b.astype(np.float64))
    return np.zeros(a.shape, dtype=bool)


def binary(schema: Schema, wide: Wide, exact: Exact, unspecified: Callable[..., np.ndarray] | None = None):
    """(output_shapes, evaluate, magnitude) of the element-wise op ``schema``: ``wide`` for the half and single
    types, ``exact`` per element for float64 and integers; ``unspecified(a, b)`` where the text leaves the value
    open (Maximum of NaN)."""

    def checked(since: int, attributes: dict[str, Any]) -> str:
        return attributes_of(schema, since, attributes)["auto_broadcast"]

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        label = f"{schema.op}-{since}"
        if len(input_shapes) != 2:
            raise SpecViolation(f"{label} takes two inputs, got {len(input_shapes)}")
        return [broadcast_shape(label, tuple(input_shapes[0]), tuple(input_shapes[1]), checked(since, attributes))[0]]

    def _inputs(since: int, inputs: list[Any], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        a, b = two_tensors(schema, since, inputs)
        shape, aligned = broadcast_shape(f"{schema.op}-{since}", a.shape, b.shape, checked(since, attributes))
        return np.broadcast_to(a, shape), np.broadcast_to(b.reshape(aligned), shape)

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        a, b = _inputs(since, inputs, attributes)
        dtype = a.dtype
        mask = np.zeros(a.shape, dtype=bool) if unspecified is None else np.asarray(unspecified(a, b), dtype=bool)
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            values = [exact(int(x), int(y)) for x, y in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist())]
            bad = np.array([v is None or not info.min <= v <= info.max for v in values], dtype=bool).reshape(a.shape)
            out = np.array([0 if v is None or not info.min <= v <= info.max else v for v in values],
                           dtype=dtype).reshape(a.shape)
            mask |= bad
        elif dtype == np.float64:
            pairs = zip(a.reshape(-1).tolist(), b.reshape(-1).tolist())
            out = np.array([_exact_float(exact, wide, x, y) for x, y in pairs], dtype=np.float64).reshape(a.shape)
        else:
            with np.errstate(all="ignore"):
                out = to_dtype(wide(a.astype(np.float64), b.astype(np.float64)), dtype)
        return [out], [mask if mask.any() else None]

    def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
        a, b = _inputs(since, inputs, attributes)
        with np.errstate(all="ignore"):
            return [np.abs(wide(a.astype(np.float64), b.astype(np.float64)))]

    return output_shapes, evaluate, magnitude


def _exact_float(exact: Exact, wide: Wide, x: float, y: float) -> float:
    """One float64 element: exact rationals rounded once where both are finite, IEEE float64 arithmetic where one
    is inf or NaN (exact there too)."""
    if math.isfinite(x) and math.isfinite(y):
        value = exact(Fraction(x), Fraction(y))
        if value is None:
            return math.nan
        try:
            return float(value)  # int / int true division: correctly rounded
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    with np.errstate(all="ignore"):
        return float(wide(np.float64(x), np.float64(y)))
