"""OpenVINO Round-5: the nearest integer element-wise; a half goes to the even neighbour (``mode`` half_to_even,
the default) or away from zero (half_away_from_zero). T "any numeric type": an integer is its own nearest integer
(the identity). Exact: the result is an integer of the type, -0 kept for a negative input that rounds to 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Round", (5,),
                attributes=(Attribute("mode", "enum", default="half_to_even",
                                      values=("half_to_even", "half_away_from_zero")),),
                inputs=(Port("x"),), outputs=(Port("y"),), types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _round(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    if x.dtype.kind in "iu":
        return x
    if attributes["mode"] == "half_to_even":
        return np.rint(x)
    whole = np.trunc(x)  # x - trunc(x) is exact: no float addition of 0.5 that would round 0.49999... up
    return np.where(np.abs(x - whole) >= 0.5, whole + np.sign(x), whole)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _round)
