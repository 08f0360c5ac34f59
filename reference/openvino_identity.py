"""OpenVINO Identity-15 and Identity-16 (one text): a copy of the input, "any supported data type" (every type
the harness has, bool included), element-wise f(x) = x."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Identity", (15, 16), inputs=(Port("input"),), outputs=(Port("output"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS, "bool")),))
VERSIONS = SCHEMA.versions


def _copy(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return x


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _copy, integers="exact")
