"""OpenVINO Selu-1: ``lambda * x`` where ``x > 0``, ``lambda * alpha * (e^x - 1)`` where ``x <= 0``, element-wise;
``alpha`` and ``lambda`` are inputs, each a "1D tensor with one element" of type T (any other shape a
SpecViolation); T "arbitrary supported floating-point type".

The negative branch cancels near 0 (e^x - 1): its rounding is measured at lambda * alpha's scale, not at |y|
(``magnitude``), as Elu's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._activations_more import rounded, scalar_parameters, wide
from ._mapped import mapped
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "Selu", (1,), inputs=(Port("data"), Port("alpha"), Port("lambda")),
                outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _formula(arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x, alpha, lam = (wide(a) for a in arrays)
    return x, np.where(x > 0, lam * x, lam * alpha * np.expm1(np.minimum(x, 0))), np.abs(lam * alpha)


def _selu(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    return rounded(_formula(arrays)[1], arrays[0]), None


def _scale(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> np.ndarray:
    x, y, unit = _formula(arrays)
    return np.where(x > 0, np.abs(y), np.maximum(np.abs(y), unit))


output_shapes, evaluate, magnitude = mapped(SCHEMA, scalar_parameters({1: (1,), 2: (1,)}), _selu, magnitude=_scale)
