"""OpenVINO ConvertLike-1: ``data`` converted element-wise to the element type of ``like`` (``o[i] =
Convert[destination_type=type(b)](a[i])``), ``like``'s values unused; T1 and T2 any supported type. As Convert
(reference/_convert.py), except that this page calls a negative integer converted to an unsigned type undefined
(Convert's page gives its value modulo 2^N): unspecified here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import convert
from ._mapped import mapped
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

ANY_TYPE = (*OV_FLOATS, *OV_INTEGERS, "bool")
SCHEMA = Schema("openvino", "ConvertLike", (1,), inputs=(Port("data"), Port("like", dtypes=ANY_TYPE)),
                outputs=(Port("y"),), types=((0, ANY_TYPE),))
VERSIONS = SCHEMA.versions


def _shape(label: str, shapes: list[tuple[int, ...]], attributes: dict[str, Any]
           ) -> tuple[tuple[int, ...], list[tuple[int, ...] | None]]:
    return tuple(shapes[0]), [tuple(shapes[0]), None]  # like's shape plays no part


def _convert_like(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    return convert(arrays[0], arrays[1].dtype, negative_to_unsigned=False)


output_shapes, evaluate, magnitude = mapped(SCHEMA, _shape, _convert_like)
