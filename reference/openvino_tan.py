"""OpenVINO Tan-1: ``tan(x)``, element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Tan", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _tan(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.tan(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _tan, integers="half_up")
