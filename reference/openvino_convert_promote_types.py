"""OpenVINO ConvertPromoteTypes-14: both inputs converted to one common type (convert-promote-types-14.rst). The
type follows the text's rules; the values are Convert's (reference/_convert.py):

- priority floating-point > integer > boolean: a pair of different priority takes the higher one's type;
- two floats: the narrowest type holding both mantissas and exponents ((f16, bf16) -> f32, with f64 -> f64);
- two integers: signed if either is, the least bit-width holding both ranges ((i8, u8) -> i16, (i32, u8) -> i32);
  u64 with a signed integer -> ``u64_integer_promotion_target`` (default f32; i128 does not exist);
- ``pytorch_scalar_promotion``: a rank-0 input beside a ranked one of the same priority takes the ranked one's type;
- ``promote_unsafe`` false refuses (SpecViolation): an integer to a float less than twice its bit-width wide,
  a promotion widening past both inputs ((i8, u8) -> i16, (f16, bf16) -> f32), u64 with a signed integer, and a
  conversion to a type of a lower range (the pytorch mode's S(i64), D(u8) -> u8).
The text's order-independence: the rules are symmetric. Exact (Convert's values; what Convert leaves open, open).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import OV_TYPES, convert
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import inputs_count
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "ConvertPromoteTypes", (14,),
    attributes=(Attribute("promote_unsafe", "bool", default=False),
                Attribute("pytorch_scalar_promotion", "bool", default=False),
                Attribute("u64_integer_promotion_target", "enum", default="f32", values=tuple(OV_TYPES))),
    inputs=(Port("input_0"), Port("input_1")),
    outputs=(Port("output_0"), Port("output_1", rank_of=1)),
    types=((0, (*OV_FLOATS, *OV_INTEGERS)),),
)
VERSIONS = SCHEMA.versions

#: floats: (exponent bits, mantissa bits)
FLOAT_BITS = {"float16": (5, 10), "bfloat16": (8, 7), "float32": (8, 23), "float64": (11, 52)}


def _bits(name: str) -> int:
    return 16 if name == "bfloat16" else np.dtype(name).itemsize * 8


def _priority(name: str) -> int:
    return 2 if name in FLOAT_BITS else 0 if name == "bool" else 1


def _lower_range(source: str, target: str) -> bool:
    """Whether ``target`` cannot hold every value of ``source`` (same priority)."""
    if source in FLOAT_BITS:
        e, m = FLOAT_BITS[source]
        te, tm = FLOAT_BITS[target]
        return te < e or tm < m
    s, t = np.iinfo(source), np.iinfo(target)
    return t.min > s.min or t.max < s.max


def promoted(a: str, b: str, ranks: tuple[int, int], found: dict[str, Any], label: str) -> str:
    """The common type of inputs of types a and b (ranks for the pytorch mode); SpecViolation where the safe mode
    refuses it."""
    unsafe = found["promote_unsafe"]

    def refuse(why: str) -> None:
        if not unsafe:
            raise SpecViolation(f"{label}: ({a}, {b}) {why} (promote_unsafe is false)")

    pa, pb = _priority(a), _priority(b)
    if pa != pb:
        high, low = (a, b) if pa > pb else (b, a)
        if high in FLOAT_BITS and low != "bool" and _bits(high) < 2 * _bits(low):
            refuse(f"converts an integer of {_bits(low)} bits to a float of {_bits(high)}")
        return high
    if a == b:
        return a
    if found["pytorch_scalar_promotion"] and (ranks[0] == 0) != (ranks[1] == 0):
        dimensioned, scalar = (a, b) if ranks[1] == 0 else (b, a)
        if _lower_range(scalar, dimensioned):
            refuse(f"converts the scalar's {scalar} to the lower range of {dimensioned}")
        return dimensioned
    if pa == 2:
        (ea, ma), (eb, mb) = FLOAT_BITS[a], FLOAT_BITS[b]
        fits = [t for t, (e, m) in FLOAT_BITS.items() if e >= max(ea, eb) and m >= max(ma, mb)]
        result = min(fits, key=lambda t: _bits(t))
        if result not in (a, b):
            refuse(f"widens to {result}")
        return result
    sa, sb = np.iinfo(a).min < 0, np.iinfo(b).min < 0
    if sa == sb:
        return a if _bits(a) >= _bits(b) else b
    signed, unsigned = (a, b) if sa else (b, a)
    if unsigned == "uint64":
        refuse("promotes u64 with a signed integer")
        return OV_TYPES[found["u64_integer_promotion_target"]]
    width = max(_bits(signed), 2 * _bits(unsigned))
    result = f"int{width}"
    if width > max(_bits(a), _bits(b)):
        refuse(f"widens to {result}")
    return result


def _target(since: int, dtypes: tuple[str, str], ranks: tuple[int, int], attributes: dict[str, Any]) -> str:
    label = f"ConvertPromoteTypes-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    for name in dtypes:
        if name not in (*OV_FLOATS, *OV_INTEGERS, "bool"):
            raise SpecViolation(f"{label}: type {name} is not a supported type")
    return promoted(dtypes[0], dtypes[1], ranks, found, label)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    inputs_count(input_shapes, (2,), f"ConvertPromoteTypes-{since}")
    attributes_of(SCHEMA, since, attributes)
    return [tuple(input_shapes[0]), tuple(input_shapes[1])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    inputs_count(inputs, (2,), f"ConvertPromoteTypes-{since}")
    x = [np.asarray(t) for t in inputs]
    target = _target(since, (x[0].dtype.name, x[1].dtype.name), (x[0].ndim, x[1].ndim), attributes)
    dtype = np.dtype(target) if target != "bfloat16" else x[0].dtype if x[0].dtype.name == "bfloat16" else x[1].dtype
    outputs, masks = [], []
    for t in x:
        y, open_ = convert(t, dtype)
        outputs.append(y)
        masks.append(open_ if np.asarray(open_).any() else None)
    return outputs, masks
