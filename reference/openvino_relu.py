"""OpenVINO ReLU-1: ``max(0, x)`` element-wise, "any supported numeric type".

The text does not say what max(0, NaN) is (IEEE 754 has a maximum that propagates NaN and a maximumNumber that
returns 0): a NaN input's element is unspecified (docs/spec-notes.md, "OpenVINO activations").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "ReLU", (1,), inputs=(Port("x"),), outputs=(Port("y"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _relu(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.where(x > 0, x, np.zeros_like(x)) if x.dtype.kind in "iu" else np.maximum(x, 0)


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.isnan(x) if x.dtype.kind == "f" or x.dtype.name == "bfloat16" else np.zeros(x.shape, dtype=bool)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _relu, unspecified=_unspecified)
