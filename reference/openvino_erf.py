"""OpenVINO Erf-1: the Gauss error function (the text's integral has 1/pi where erf has 1/sqrt(pi): docs/spec-
notes.md), element-wise.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Erf", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


_ERF = np.vectorize(math.erf, otypes=[np.float64])


def _gauss_erf(x: np.ndarray) -> np.ndarray:
    """erf in float64 (math.erf): a float64 output keeps float64 accuracy (no long double erf)."""
    return _ERF(x.astype(np.float64))


def _erf(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return _gauss_erf(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _erf, integers="open")
