"""The members of an element-wise op of one tensor (the OpenVINO activations), built from its formula.

An op module declares its schema and writes its formula (``formula(x, attributes) -> y`` on a wide array: float64,
long double for float64 inputs, the integers themselves for an integer type); this gives the op contract's
members: the shape is the input's, the value is the formula rounded once to the input type, and ``magnitude`` is
the scale an ``ulp`` bound measures at (|y| unless the op says otherwise: a result that cancels against its terms
is measured at their scale). Attributes are checked against the schema: unknown, missing required, wrong kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype
from .schema import Schema

Formula = Callable[[np.ndarray, dict[str, Any]], np.ndarray]
#: (x in its wide type, y in its wide type, attributes) -> the scale of the result's rounding, for the ulp bound
Scale = Callable[[np.ndarray, np.ndarray, dict[str, Any]], np.ndarray]
#: (x, attributes) -> True where the text leaves the value undefined (not compared)
Unspecified = Callable[[np.ndarray, dict[str, Any]], np.ndarray]

_KINDS: dict[str, tuple[type, ...]] = {"float": (float, int, np.floating, np.integer), "int": (int, np.integer),
                                       "enum": (str,), "bool": (bool, np.bool_)}


def attributes_of(schema: Schema, since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    """The version's attributes, defaults filled in; ``SpecViolation`` for an unknown, a missing required one, a
    value of another kind or outside its allowed values."""
    label = f"{schema.op}-{since}"
    unknown = sorted(set(attributes) - schema.attribute_names(since))
    if unknown:
        raise SpecViolation(f"{label}: attribute(s) {unknown} are not defined by this version")
    found = {}
    for attribute in schema.attributes_at(since):
        if attribute.name not in attributes:
            if attribute.required:
                raise SpecViolation(f"{label}: the required attribute {attribute.name} is missing")
            found[attribute.name] = attribute.default
            continue
        value = attributes[attribute.name]
        kinds = _KINDS.get(attribute.kind, (object,))
        if isinstance(value, bool) and attribute.kind != "bool" or not isinstance(value, kinds):
            raise SpecViolation(f"{label}: {attribute.name} is a {attribute.kind} attribute, got {value!r}")
        if attribute.values and value not in attribute.values:
            raise SpecViolation(f"{label}: {attribute.name}={value!r} is not one of {list(attribute.values)}")
        found[attribute.name] = float(value) if attribute.kind == "float" else value
    return found


def _input(schema: Schema, since: int, inputs: list[Any]) -> np.ndarray:
    label = f"{schema.op}-{since}"
    if len(inputs) != 1:
        raise SpecViolation(f"{label} takes exactly one input, got {len(inputs)}")
    x = inputs[0]
    if not isinstance(x, np.ndarray):
        raise SpecViolation(f"{label}: the input must be a tensor, got {type(x).__name__}")
    name = "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)
    allowed = schema.supported_dtypes(since)
    if name not in allowed:
        raise SpecViolation(f"{label}: input type {name} is not in the type constraint {list(allowed)}")
    return x


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(work_dtype(x.dtype)) if x.dtype.kind == "f" or x.dtype.name == "bfloat16" else x


#: how an op's integer inputs get an integer result: "exact" (the formula is exact on integers: Abs, Floor),
#: "half_up" (the real result rounded half up, as Sqrt's and Tanh's texts say), "open" (the text states no
#: rounding: the result is specified only where it is an integer already)
INTEGER_ROUNDINGS = ("exact", "half_up", "open")


def _integer_result(x: np.ndarray, y: np.ndarray, rounding: str) -> tuple[np.ndarray, np.ndarray | None]:
    """The integer output and where it is unspecified (a result the type cannot hold, or not an integer where no
    rounding is stated)."""
    if rounding == "exact":  # in the integers themselves (no float64: int64 beyond 2^53 stays exact)
        return np.asarray(y).astype(x.dtype), None
    real = np.asarray(y, dtype=np.float64)
    rounded = np.floor(real + 0.5)
    info = np.iinfo(x.dtype)
    bad = ~np.isfinite(rounded) | (rounded < info.min) | (rounded > info.max)
    if rounding == "open":
        bad |= rounded != real
    return np.where(bad, 0, rounded).astype(x.dtype), bad


def elementwise(schema: Schema, formula: Formula, scale: Scale | None = None, check: Callable[..., None] | None = None,
                unspecified: Unspecified | None = None, integers: str = "exact"):
    """(output_shapes, evaluate, magnitude) of the element-wise op ``schema`` computing ``formula``; ``check(since,
    attributes)`` for what the text forbids beyond the attributes' kinds (Clamp's min > max); ``unspecified(x,
    attributes)`` where the text leaves the value open (Clamp of NaN); ``integers`` how integer inputs round
    (``INTEGER_ROUNDINGS``)."""
    if integers not in INTEGER_ROUNDINGS:
        raise ValueError(f"{schema.op}: integers must be one of {INTEGER_ROUNDINGS}, not {integers!r}")

    def checked(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
        found = attributes_of(schema, since, attributes)
        if check is not None:
            check(since, found)
        return found

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        checked(since, attributes)
        return [tuple(input_shapes[0])]

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        x = _input(schema, since, inputs)
        found = checked(since, attributes)
        integer = x.dtype.kind in "iu"
        with np.errstate(all="ignore"):
            # integers: the formula on the exact values (int64 holds every int32 product here; float64 for
            # functions), then the op's stated rounding
            y = formula(x.astype(np.float64) if integer and integers != "exact" else _wide(x), found)
        mask = np.zeros(x.shape, dtype=bool) if unspecified is None else np.asarray(unspecified(x, found), dtype=bool)
        if integer:
            out, bad = _integer_result(x, y, integers)
            mask = mask if bad is None else mask | bad
        else:
            out = round_to(np.asarray(y, dtype=work_dtype(x.dtype)), x.dtype)
        return [out], [mask if mask.any() else None]

    def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
        x = _input(schema, since, inputs)
        wide = _wide(x)
        found_attributes = checked(since, attributes)
        with np.errstate(all="ignore"):
            y = formula(wide, found_attributes)
            found = np.abs(y) if scale is None else scale(wide, y, found_attributes)
        return [np.asarray(found, dtype=np.float64)]

    return output_shapes, evaluate, magnitude
