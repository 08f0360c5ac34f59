"""OpenVINO Maximum-1: ``max(a, b)`` element-wise after ``auto_broadcast`` (none, numpy, pdpd:
reference/_binary.py), "any numeric type". A NaN operand's element is unspecified (``_binary.nan_operand``:
docs/spec-notes.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._binary import AUTO_BROADCAST, binary, nan_operand
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Maximum", (1,), attributes=(AUTO_BROADCAST,), inputs=(Port("a"), Port("b")),
                outputs=(Port("y"),), types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _wide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.maximum(a, b)


def _exact(x: Any, y: Any) -> Any:
    return max(x, y)


output_shapes, evaluate, magnitude = binary(SCHEMA, _wide, _exact, unspecified=nan_operand)
