"""OpenVINO Add-1: ``a + b`` element-wise after ``auto_broadcast`` (none, numpy, pdpd:
reference/_binary.py), "any numeric type".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._binary import AUTO_BROADCAST, binary
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Add", (1,), attributes=(AUTO_BROADCAST,), inputs=(Port("a"), Port("b")),
                outputs=(Port("y"),), types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _wide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a + b


def _exact(x: Any, y: Any) -> Any:
    return x + y


output_shapes, evaluate, magnitude = binary(SCHEMA, _wide, _exact)
