"""OpenVINO Mish-4: ``x * tanh(ln(1 + e^x))`` element-wise, "arbitrary supported floating-point type". The softplus
in wide precision with log1p (exact where e^x underflows 1 + e^x), then tanh.
-inf gives -inf * tanh(0) by the formula (NaN in IEEE arithmetic) where the limit is 0: the
text says neither, the element is unspecified (docs/spec-notes.md, "OpenVINO activations"). The text writes
ln(1 + e^x): evaluated so, its absolute error is a rounding of 1 whatever e^x is, carried by the multiply by x:
the rounding is measured at max(|y|, |x|) (as ONNX Softplus's family measures at 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "Mish", (4,), inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _mish(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return x * np.tanh(np.logaddexp(0, x))


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.isneginf(x)


def _scale(x: np.ndarray, y: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.maximum(np.abs(y), np.abs(x))


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _mish, scale=_scale, unspecified=_unspecified)
