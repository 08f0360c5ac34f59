"""OpenVINO Sqrt-1: ``sqrt(x)``; "If the input value is negative, then the result is undefined"; integers "rounded
(half up)", element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Sqrt", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return x.astype(np.float64) < 0


def _sqrt(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.sqrt(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _sqrt, unspecified=_unspecified, integers="half_up")
