"""OpenVINO Sigmoid-1: ``1 / (1 + e^-x)`` element-wise, "any floating-point type".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "Sigmoid", (1,), inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _sigmoid(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _sigmoid)
