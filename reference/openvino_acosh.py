"""OpenVINO Acosh-3: ``acosh(x)``, unspecified below 1 (the text is silent there), element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Acosh", (3,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return x.astype(np.float64) < 1


def _acosh(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.arccosh(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _acosh, unspecified=_unspecified, integers="open")
