"""OpenVINO Sign-1: -1, 0 or 1 by the sign of x, "nan is returned for nan inputs", element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Sign", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _sign(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.sign(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _sign)
