"""OpenVINO SoftPlus-4: ``ln(e^x + 1)`` element-wise, "arbitrary supported floating-point type".

The text lets an implementation "revert to the linear function when x > threshold", a threshold "chosen in such
a way that the difference between the linear function and exact calculation is no more than 1e-6" (20 for fp32,
11 for fp16): beyond it ln(e^x + 1) - x < e^-x is below the type's rounding of x, so the value is the same either
way and the reference is the exact function. ln(e^x + 1) as written has the absolute error of a rounding of 1
whatever e^x is: measured at max(|y|, 1), as ONNX Softplus's family.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "SoftPlus", (4,), inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _softplus(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.logaddexp(0, x)


def _scale(x: np.ndarray, y: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.maximum(np.abs(y), 1)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _softplus, scale=_scale)
