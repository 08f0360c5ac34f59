"""OpenVINO Gelu-2 and Gelu-7: ``x * Phi(x)`` element-wise. Gelu-7 by ``approximation_mode`` (default ``erf``):
``erf``, ``0.5 * x * (1 + erf(x / sqrt(2)))``; ``tanh``, ``0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 *
x^3)))`` - the text's own approximation, itself the value (not judged against the erf form). "arbitrary supported
floating-point type".

Gelu-2 has no attribute: its text gives the erf form and says the function "may be approximated" by the same tanh
form, so both are its readings (``readings``): ``evaluate`` is the erf form (the definition), and the op's error
model accepts an output that is one reading whole (docs/spec-notes.md, docs/tolerance.md "one-reading"). 1 +
erf(x / sqrt 2) cancels for negative x: the rounding is measured at max(|y|, |x|), as ONNX Gelu's family.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._elementwise import elementwise
from ._readings import Outputs
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Gelu", (2, 7),
                attributes=(Attribute("approximation_mode", "enum", default="erf", values=("erf", "tanh"), since=7),),
                inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions

#: 1 + erf(z) = erfc(-z), and 1 + tanh(z) = 2 / (1 + e^-2z): the text's sums without their cancellation, so the
#: reference is exact to its type where the result is small beside x (x << 0)
_ERFC = np.vectorize(math.erfc, otypes=[np.float64])


def _gelu(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    wide = x.astype(np.float64)
    if attributes.get("approximation_mode", "erf") == "tanh":  # Gelu-2's definition is the erf form
        inner = math.sqrt(2 / math.pi) * (wide + 0.044715 * wide**3)
        return wide / (1 + np.exp(-2 * inner))
    return 0.5 * wide * _ERFC(-wide / math.sqrt(2))


def _scale(x: np.ndarray, y: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.maximum(np.abs(y), np.abs(x))


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _gelu, scale=_scale)


#: Gelu-2's readings: the form its text defines the function by, and the approximation it allows
GELU2_READINGS = ("erf", "tanh")


def readings(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Outputs]:
    """Gelu-2: the erf form and the tanh form, each whole; Gelu-7: its mode's one form."""
    defined = evaluate(since, inputs, attributes)  # the version's own checks (Gelu-2 has no attribute)
    if since >= 7:
        return {attributes.get("approximation_mode", "erf"): defined}
    return {mode: evaluate(7, inputs, {"approximation_mode": mode}) for mode in GELU2_READINGS}
