"""OpenVINO Exp-1: ``e^x`` element-wise, "arbitrary supported floating-point type".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "Exp", (1,), inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _exp(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.exp(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _exp)
