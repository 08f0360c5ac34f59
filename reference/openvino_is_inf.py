"""OpenVINO IsInf-10: ``True`` where the input is +Infinity (``detect_positive``) or -Infinity
(``detect_negative``), ``False`` elsewhere (both false: every element false); T_IN "any supported floating-point
type", the output ``boolean``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._mapped import mapped, same_shape
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "IsInf", (10,),
                attributes=(Attribute("detect_negative", "bool", default=True, values=(False, True)),
                            Attribute("detect_positive", "bool", default=True, values=(False, True))),
                inputs=(Port("data"),), outputs=(Port("y", dtype="bool"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _is_inf(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    x = arrays[0].astype(np.float64)
    return ((x == np.inf) & bool(attributes["detect_positive"])) | ((x == -np.inf)
                                                                      & bool(attributes["detect_negative"])), None


output_shapes, evaluate, magnitude = mapped(SCHEMA, same_shape, _is_inf)
