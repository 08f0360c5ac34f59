"""OpenVINO Swish-4: ``x * sigmoid(beta * x) = x / (1 + e^-(beta * x))`` element-wise; ``beta`` an optional input,
"a non-negative scalar value" of type T (1.0 when left out; a negative or non-scalar beta is a SpecViolation);
T "arbitrary supported floating-point type".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._activations_more import rounded, scalar_parameters, wide
from ._errors import SpecViolation
from ._mapped import mapped
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "Swish", (4,), inputs=(Port("data"), Port("beta", optional=True)), outputs=(Port("y"),),
                types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _swish(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    x = wide(arrays[0])
    beta = wide(arrays[1]) if len(arrays) > 1 else x.dtype.type(1.0)
    if np.any(beta < 0):
        raise SpecViolation(f"{label}: beta must be non-negative, got {float(np.min(beta))}")
    return rounded(x / (1 + np.exp(-(beta * x))), arrays[0]), None


output_shapes, evaluate, magnitude = mapped(SCHEMA, scalar_parameters({1: ()}), _swish)
