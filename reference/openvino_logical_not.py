"""OpenVINO LogicalNot-1: ``o = NOT a`` element-wise; T_BOOL ``boolean`` in and out, no attributes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._mapped import mapped, same_shape
from .schema import Port, Schema

SCHEMA = Schema("openvino", "LogicalNot", (1,), inputs=(Port("a"),), outputs=(Port("y", dtype="bool"),),
                types=((0, ("bool",)),))
VERSIONS = SCHEMA.versions


def _not(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    return np.logical_not(arrays[0]), None


output_shapes, evaluate, magnitude = mapped(SCHEMA, same_shape, _not)
