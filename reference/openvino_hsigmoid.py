"""OpenVINO HSigmoid-5: ``min(max(x + 3, 0), 6) / 6`` element-wise, "any floating-point type".
max(NaN + 3, 0) is not said (NaN or 0): a NaN input's element is unspecified. The add cancels near x = -3: the
rounding is measured at max(|y|, max(|x|, 3) / 6), the add's own scale through the division (``magnitude``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "HSigmoid", (5,), inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _hsigmoid(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.minimum(np.maximum(x + 3, 0), 6) / 6


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.isnan(x)


def _scale(x: np.ndarray, y: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.maximum(np.abs(y), np.maximum(np.abs(x), 3) / 6)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _hsigmoid, scale=_scale, unspecified=_unspecified)
