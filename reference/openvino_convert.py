"""OpenVINO Convert-1: the input converted element-wise to ``destination_type`` (required; "one of the supported
types T": here every type a case can hold, in OpenVINO's names f16 ... u64, boolean); T any supported type. What
is specified and what is left open: reference/_convert.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import OV_TYPES, convert
from ._mapped import mapped, same_shape
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Convert", (1,),
                attributes=(Attribute("destination_type", "enum", required=True, values=tuple(OV_TYPES)),),
                inputs=(Port("data"),),
                outputs=(Port("y", dtype_attribute="destination_type", dtype_names=tuple(OV_TYPES.items())),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS, "bool")),))
VERSIONS = SCHEMA.versions


def _convert(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    from ._windows import BF16

    name = OV_TYPES[attributes["destination_type"]]
    return convert(arrays[0], BF16 if name == "bfloat16" else np.dtype(name))


output_shapes, evaluate, magnitude = mapped(SCHEMA, same_shape, _convert)
