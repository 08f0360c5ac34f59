"""OpenVINO Floor-1: ``floor(x)``, element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Floor", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _floor(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.floor(x) if x.dtype.kind == 'f' else x


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _floor)
