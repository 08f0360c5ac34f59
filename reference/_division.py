"""Divide, FloorMod and Mod of OpenVINO: the quotient and the two remainders, exact per element.

Integers in Python ints: Divide's floor division (``m_pythondiv`` true) or the truncated one (false: the text's
"regular division", C's), FloorMod's remainder with the divisor's sign (the text: "like in Python"), Mod's with
the dividend's (the text: "like in C"). Floats: the quotient rounded once (IEEE's correctly rounded division); the
remainders are exact for Mod (fmod is exact in IEEE 754) and one rounding of the exact value for FloorMod.
"The result of division by zero is undefined" (every page): where the divisor is 0, unspecified; the remainders of
an infinite or NaN operand too (the texts define them only through the identity between finite numbers).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np


def divisor_zero(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray(b.astype(np.float64) == 0)


def not_finite_or_divisor_zero(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    return np.asarray((wide_b == 0) | ~np.isfinite(wide_a) | ~np.isfinite(wide_b))


def trunc_div(x: int, y: int) -> int:
    """C's integer division: the quotient truncated toward zero."""
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def floor_div_exact(x: Any, y: Any) -> Any:
    if y == 0:
        return None
    return x // y if isinstance(x, int) else x / y


def trunc_div_exact(x: Any, y: Any) -> Any:
    if y == 0:
        return None
    return trunc_div(x, y) if isinstance(x, int) else x / y


def floor_mod_exact(x: Any, y: Any) -> Any:
    """x - floor(x / y) * y: Python's %, on ints and on Fractions alike (exact)."""
    return None if y == 0 else x % y


def mod_exact(x: Any, y: Any) -> Any:
    """x - trunc(x / y) * y: the sign of the dividend."""
    if y == 0:
        return None
    if isinstance(x, int):
        return x - trunc_div(x, y) * y
    return x - y * math.trunc(Fraction(x) / Fraction(y))


def floor_mod_wide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """float64 of half and single inputs: fmod is exact; the divisor added where the signs differ is one sum of two
    such numbers, rounded in float64 and again to the type (innocuous: 53 >= 2p + 2)."""
    r = np.fmod(a, b)
    return np.where((r != 0) & ((r < 0) != (b < 0)), r + b, r)


def mod_wide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.fmod(a, b)
