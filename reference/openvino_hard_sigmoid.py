"""OpenVINO HardSigmoid-1: ``max(0, min(1, alpha * x + beta))`` element-wise; ``alpha`` and ``beta`` are inputs, each
a "0D tensor (scalar)" of type T (any other shape a SpecViolation); T "any floating-point type".

alpha * x + beta may cancel: its rounding is measured at |alpha * x| + |beta| where the result is not clamped.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._activations_more import rounded, scalar_parameters, wide
from ._mapped import mapped
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "HardSigmoid", (1,), inputs=(Port("data"), Port("alpha"), Port("beta")),
                outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _hard_sigmoid(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    x, alpha, beta = (wide(a) for a in arrays)
    return rounded(np.maximum(0, np.minimum(1, alpha * x + beta)), arrays[0]), None


def _scale(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> np.ndarray:
    x, alpha, beta = (wide(a) for a in arrays)
    y = np.maximum(0, np.minimum(1, alpha * x + beta))
    return np.where((y > 0) & (y < 1), np.abs(alpha * x) + np.abs(beta), np.abs(y))


output_shapes, evaluate, magnitude = mapped(SCHEMA, scalar_parameters({1: (), 2: ()}), _hard_sigmoid,
                                            magnitude=_scale)
