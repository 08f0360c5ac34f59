"""OpenVINO Tanh-1: ``tanh(x)``; "For integer element type the result is rounded (half up)", element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Tanh", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _tanh(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.tanh(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _tanh, integers="half_up")
