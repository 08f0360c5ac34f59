"""OpenVINO Range-1 and Range-4: ``start, start + step, ...`` up to but not including ``stop`` (range-4.rst).

- Range-1: start, stop, step and the output of one type T (any numeric type); ``val[i] = start + i * step`` with
  ``start <= val[i] < stop`` for a positive step, ``start >= val[i] > stop`` for a negative one.
- Range-4: each input its own numeric type, the output ``output_type``'s (required); "the calculations are done
  after casting all values to accumulate_type(output_type)" (an integer type for an integer output: "The rounding
  for casting values are done towards zero"), the count ``max(ceil((stop - start) / step), 0)``, and
  ``val[i + 1] = val[i] + step``.

The reference computes each value exactly (rationals of the inputs' exact values, cast first for -4) and rounds it
once to the output type; the count is exact too. A float output is judged by the accumulation bound at the formula's
own magnitude (``magnitude``): -1's ``start + i * step`` (a product and a sum) at ``|start| + i |step|``, -4's
recurrence (i additions, each rounding at most its partial sum) at ``sum over j <= i of (|start| + j |step|)``.
A zero step (after the cast, -4) leaves the output undefined: refused. The output shape depends on the inputs'
values (all three are Constants in a built model).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, OV_TYPE_NAMES, inputs_count, value_of
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "Range", (1, 4),
    attributes=(Attribute("output_type", "enum", values=tuple(OV_TYPE_NAMES), required=True, since=4),),
    inputs=(Port("start"), Port("stop"), Port("step")),
    outputs=(Port("output", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _dtype(name: str) -> np.dtype:
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def _exact(x: Any, label: str, what: str) -> Fraction:
    array = np.asarray(x)
    if array.size != 1 or array.ndim > 1 or array.dtype.name not in ANY_TYPE:
        raise SpecViolation(f"{label}: {what} is a scalar of a numeric type, got {array.dtype}{list(array.shape)}")
    value = array.reshape(-1)[0]
    if array.dtype.kind in "iu":
        return Fraction(int(value))
    as_float = float(value)
    if not math.isfinite(as_float):
        raise SpecViolation(f"{label}: {what} is {as_float}")
    return Fraction(as_float)


def _plan(since: int, values: list[Any], attributes: dict[str, Any]) -> tuple[np.dtype, Fraction, Fraction, int]:
    """(output dtype, start, step, count), all exact."""
    label = f"Range-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    start, stop, step = (_exact(v, label, name) for v, name in zip(values, ("start", "stop", "step")))
    if since < 4:
        kinds = {np.asarray(v).dtype.name for v in values}
        if len(kinds) != 1:
            raise SpecViolation(f"{label}: start, stop and step are of one type T, got {sorted(kinds)}")
        dtype = np.asarray(values[0]).dtype
    else:
        dtype = _dtype(OV_TYPE_NAMES[found["output_type"]])
        if dtype.kind in "iu":  # cast towards zero into the (integer) accumulation type
            start, stop, step = (Fraction(math.trunc(v)) for v in (start, stop, step))
    if step == 0:
        raise SpecViolation(f"{label}: step is 0 (the output is undefined)")
    count = max(math.ceil((stop - start) / step), 0)
    return dtype, start, step, count


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"Range-{since}"
    inputs_count(input_shapes, (3,), label)
    values = [value_of(input_values, p, label, ("start", "stop", "step")[p]) for p in range(3)]
    return [(_plan(since, values, attributes)[3],)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"Range-{since}"
    inputs_count(inputs, (3,), label)
    dtype, start, step, count = _plan(since, list(inputs), attributes)
    exact = [start + i * step for i in range(count)]
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        bad = np.array([not info.min <= int(v) <= info.max for v in exact], dtype=bool)
        out = np.array([0 if b else int(v) for v, b in zip(exact, bad)], dtype=dtype)
        return [out], [bad if bad.any() else None]
    # one rounding: the nearest float64 of the exact value is within half a float64 ulp, then the output type's
    return [np.array([float(v) for v in exact], dtype=np.float64).astype(dtype)], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """The scale of the formula's roundings per element: |start| + i|step| (-1), its partial sums' total (-4)."""
    _, start, step, count = _plan(since, list(inputs), attributes)
    terms = np.array([abs(float(start)) + i * abs(float(step)) for i in range(count)], dtype=np.float64)
    return [terms if since < 4 else np.cumsum(terms)]
