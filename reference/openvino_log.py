"""OpenVINO Log-1: ``ln(x)``, unspecified below 0 (the text is silent there); log(0) = -inf, element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Log", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return x.astype(np.float64) < 0


def _log(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.log(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _log, unspecified=_unspecified, integers="open")
