"""OpenVINO Atanh-3: ``atanh(x)`` element-wise for floating-point types; for integral types the text's own rule:
signed ``x <= -1`` gives ``std::numeric_limits<T>::min()``, ``x >= 1`` gives ``max()``, otherwise ``atanh(x)`` (0,
the only integer in (-1, 1)); unsigned ``x > 0`` gives ``max()``, 0 gives 0.

``numeric_limits<T>::min()`` of an integral T is its lowest value (-128 for int8): C++ defines ``min()`` as the
smallest positive normal value for floating-point types only (docs/spec-notes.md, "OpenVINO Atanh-3").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Atanh", (3,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _atanh(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    if x.dtype.kind in "iu":  # the integers themselves (integers="exact"): the text's saturation rule
        info = np.iinfo(x.dtype)
        return np.where(x <= -1, info.min, np.where(x >= 1, info.max, 0)).astype(x.dtype)
    return np.arctanh(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _atanh, integers="exact")
