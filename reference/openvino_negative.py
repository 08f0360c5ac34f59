"""OpenVINO Negative-1: ``-x``, "any supported signed numeric type", element-wise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "Negative", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, "int8", "int16", "int32", "int64")),))
VERSIONS = SCHEMA.versions


def _integer_min(x: np.ndarray, attributes: dict[str, Any] | None = None) -> np.ndarray:
    """The integer type's minimum has no positive counterpart in the type: its result overflows."""
    return x == np.iinfo(x.dtype).min if x.dtype.kind == "i" else np.zeros(x.shape, dtype=bool)


def _negative(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return -x


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _negative, unspecified=_integer_min)
