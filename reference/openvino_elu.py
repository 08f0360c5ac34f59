"""OpenVINO Elu-1: ``x`` where ``x > 0``, ``alpha * (e^x - 1)`` where ``x <= 0``, element-wise; ``alpha`` a required
float, "non-negative" (a negative alpha is a SpecViolation); "arbitrary supported floating-point type".

The negative branch cancels near 0 (e^x - 1 as the text writes it): its rounding is measured at alpha's scale, not
at |y| (``magnitude``), as ONNX Elu's family is (docs/tolerance.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import elementwise
from ._errors import SpecViolation
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Elu", (1,), attributes=(Attribute("alpha", "float", required=True),),
                inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _elu(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    alpha = x.dtype.type(attributes["alpha"])
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def _scale(x: np.ndarray, y: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.where(x > 0, np.abs(y), np.maximum(np.abs(y), attributes["alpha"]))


def _check(since: int, attributes: dict[str, Any]) -> None:
    if not attributes["alpha"] >= 0:
        raise SpecViolation(f"Elu-{since}: alpha={attributes['alpha']} - \"non-negative arbitrary floating-point "
                            "number\"")


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _elu, scale=_scale, check=_check)
