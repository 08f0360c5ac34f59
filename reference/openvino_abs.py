"""OpenVINO Abs-1: ``|x|``, element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Abs", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _integer_min(x: np.ndarray, attributes: dict[str, Any] | None = None) -> np.ndarray:
    """The integer type's minimum has no positive counterpart in the type: its result overflows."""
    return x == np.iinfo(x.dtype).min if x.dtype.kind == "i" else np.zeros(x.shape, dtype=bool)


def _abs(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.abs(x)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _abs, unspecified=_integer_min)
