"""OpenVINO IsFinite-10: ``False`` where the input is NaN or ±Infinity, ``True`` elsewhere; T "any supported
floating-point type", the output ``boolean``; no attributes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._mapped import mapped, same_shape
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "IsFinite", (10,), inputs=(Port("data"),), outputs=(Port("y", dtype="bool"),),
                types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _is_finite(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    return np.isfinite(arrays[0].astype(np.float64)), None


output_shapes, evaluate, magnitude = mapped(SCHEMA, same_shape, _is_finite)
