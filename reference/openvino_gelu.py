"""OpenVINO Gelu-7: ``x * Phi(x)`` element-wise by ``approximation_mode`` (default ``erf``): ``erf``,
``0.5 * x * (1 + erf(x / sqrt(2)))``; ``tanh``, ``0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`` - the
text's own approximation, itself the value (not judged against the erf form). "arbitrary supported floating-point
type".

Gelu-2's text gives the erf form and says it "may be approximated" by the tanh form, without a way to say which:
two values for one input, so Gelu-2 is not modelled (docs/openvino-opset.md). 1 + erf(x / sqrt 2) cancels for
negative x: the rounding is measured at max(|y|, |x|), as ONNX Gelu's family.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Gelu", (7,),
                attributes=(Attribute("approximation_mode", "enum", default="erf", values=("erf", "tanh")),),
                inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions

#: 1 + erf(z) = erfc(-z), and 1 + tanh(z) = 2 / (1 + e^-2z): the text's sums without their cancellation, so the
#: reference is exact to its type where the result is small beside x (x << 0)
_ERFC = np.vectorize(math.erfc, otypes=[np.float64])


def _gelu(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    wide = x.astype(np.float64)
    if attributes["approximation_mode"] == "tanh":
        inner = math.sqrt(2 / math.pi) * (wide + 0.044715 * wide**3)
        return wide / (1 + np.exp(-2 * inner))
    return 0.5 * wide * _ERFC(-wide / math.sqrt(2))


def _scale(x: np.ndarray, y: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.maximum(np.abs(y), np.abs(x))


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _gelu, scale=_scale)
