"""OpenVINO Atan2-17: ``atan2(y, x)`` element-wise after ``auto_broadcast`` (none, numpy, pdpd:
reference/_binary.py), the angle of the point (x, y) in [-pi, pi]; T "any supported floating-point type" (only
floating-point inputs). Computed in float64 (long double for float64) and rounded once; the angle of (0, 0) is
unspecified (the text's "angle between the positive x-axis and the point" has none there; C gives ±0 or ±pi by the
zeros' signs: docs/spec-notes.md). Infinite operands as C's atan2.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._binary import AUTO_BROADCAST
from ._mapped import auto_broadcast, mapped
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "Atan2", (17,), attributes=(AUTO_BROADCAST,), inputs=(Port("y"), Port("x")),
                outputs=(Port("z"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _angle(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    y, x = arrays
    wide = work_dtype(y.dtype)
    out = round_to(np.arctan2(y.astype(wide), x.astype(wide)), y.dtype)
    return out, (y.astype(np.float64) == 0) & (x.astype(np.float64) == 0)


output_shapes, evaluate, magnitude = mapped(SCHEMA, auto_broadcast, _angle)
