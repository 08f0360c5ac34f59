"""OpenVINO Asin-1: ``asin(x)``, unspecified outside [-1, 1] (the text is silent there), element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Asin", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.abs(x.astype(np.float64)) > 1


def _asin(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.arcsin(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _asin, unspecified=_unspecified, integers="open")
