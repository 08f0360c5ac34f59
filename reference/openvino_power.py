"""OpenVINO Power-1: ``a ^ b`` element-wise after ``auto_broadcast`` - none and numpy (the page lists no pdpd: a
SpecViolation); T "any numeric type".

Floats: pow as IEEE 754 / C define it (a negative base with a non-integer exponent is NaN, 0^-1 is inf), computed
in float64 (long double for float64) and rounded once; judged with pow's ULP bound. Integers: the exact power; a
negative exponent has an integer result only for a base of ±1 (elsewhere the text gives none: unspecified), as is a
result the type cannot hold.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ._binary import binary
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Power", (1,),
                attributes=(Attribute("auto_broadcast", "enum", default="numpy", values=("none", "numpy")),),
                inputs=(Port("a"), Port("b")), outputs=(Port("y"),), types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _wide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.power(a, b)


def _exact(x: Any, y: Any) -> Any:
    if isinstance(x, int):
        if y >= 0:
            return x**y
        return {1: 1, -1: -1 if y % 2 else 1}.get(x)  # 1 / x^n is an integer for x = ±1 only
    if y.denominator == 1 and abs(y) <= 64 and not (x == 0 and y < 0):
        return x ** int(y)  # exact rational
    return Fraction(float(np.power(np.longdouble(x), np.longdouble(y))))  # pow's own rounding (ulp-judged)


output_shapes, evaluate, magnitude = binary(SCHEMA, _wide, _exact)
