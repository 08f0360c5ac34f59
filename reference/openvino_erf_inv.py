"""OpenVINO ErfInv-16 and ErfInv-17 (one text): the ``y`` with ``erf(y) = x``, element-wise; ``erfinv(0) = 0``,
``erfinv(±1) = ±inf``, NaN for ``|x| > 1``; "any supported floating-point type".

Computed by Newton's method on ``math.erf`` in float64 from Giles' approximation (converging to float64's
resolution of the root), rounded once. The text's function is ill-conditioned near ±1: the implementation's own
rounding of ``erf`` moves ``y`` by ``u / erf'(y)``, so the ``ulp`` bound is measured at ``|y| + |x| / erf'(y)``
(``magnitude``), not |y| alone.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "ErfInv", (16, 17), inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _one(x: float) -> float:
    if math.isnan(x) or abs(x) > 1:
        return math.nan
    if abs(x) == 1:
        return math.copysign(math.inf, x)
    if x == 0:
        return x  # keeps -0
    w = -math.log((1.0 - x) * (1.0 + x))  # Giles (2010), single-precision branch as the start
    if w < 5.0:
        w -= 2.5
        p = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                  -0.00417768164, 0.246640727, 1.50140941):
            p = c + p * w
    else:
        w = math.sqrt(w) - 3.0
        p = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                  0.00943887047, 1.00167406, 2.83297682):
            p = c + p * w
    y = p * x
    for _ in range(6):  # Newton on erf(y) - x; stops where float64 can no longer move y
        step = (math.erf(y) - x) / (2.0 / math.sqrt(math.pi) * math.exp(-y * y))
        if not math.isfinite(step) or step == 0:
            break
        y -= step
    return y


_ERFINV = np.vectorize(_one, otypes=[np.float64])


def _erfinv(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return _ERFINV(x.astype(np.float64))


def _scale(x: np.ndarray, y: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    """|y| + |x| / erf'(y): an error of u |x| in evaluating erf moves y by it over erf's slope."""
    with np.errstate(all="ignore"):
        slope = 2.0 / np.sqrt(np.pi) * np.exp(-np.square(y.astype(np.float64)))
        return np.abs(y) + np.abs(x.astype(np.float64)) / slope


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _erfinv, scale=_scale)
