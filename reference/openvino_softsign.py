"""OpenVINO SoftSign-9: ``x / (1 + |x|)`` element-wise, "arbitrary supported floating-point type".
±inf gives inf / inf by the formula (NaN in IEEE arithmetic) where the limit is ±1: the text
says neither, the element is unspecified (docs/spec-notes.md, "OpenVINO activations").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "SoftSign", (9,), inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _softsign(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return x / (1 + np.abs(x))


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.isinf(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _softsign, unspecified=_unspecified)
