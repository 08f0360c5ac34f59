"""OpenVINO HSwish-4: ``x * min(max(x + 3, 0), 6) / 6`` element-wise, "arbitrary supported floating-point type".
-inf gives -inf * 0 by the formula (NaN in IEEE arithmetic) where the limit is 0: the text
says neither, the element is unspecified (docs/spec-notes.md, "OpenVINO activations"). The add cancels near
x = -3: the rounding is measured at max(|y|, |x| * max(|x|, 3) / 6), the add's error carried by the multiply by x.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "HSwish", (4,), inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _hswish(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return x * np.minimum(np.maximum(x + 3, 0), 6) / 6


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.isneginf(x)


def _scale(x: np.ndarray, y: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.maximum(np.abs(y), np.abs(x) * np.maximum(np.abs(x), 3) / 6)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _hswish, scale=_scale, unspecified=_unspecified)
