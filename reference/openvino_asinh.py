"""OpenVINO Asinh-3: ``asinh(x)``, element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Asinh", (3,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _asinh(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.arcsinh(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _asinh, integers="open")
