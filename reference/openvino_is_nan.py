"""OpenVINO IsNaN-10: ``True`` where the input is NaN, ``False`` elsewhere; T_IN "any supported floating-point
type", the output ``boolean``; no attributes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._mapped import mapped, same_shape
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "IsNaN", (10,), inputs=(Port("data"),), outputs=(Port("y", dtype="bool"),),
                types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _is_nan(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    return np.isnan(arrays[0].astype(np.float64)), None


output_shapes, evaluate, magnitude = mapped(SCHEMA, same_shape, _is_nan)
