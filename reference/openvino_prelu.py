"""OpenVINO PReLU-1: ``x`` where ``x >= 0``, ``slope * x`` where ``x < 0``, element-wise; T "arbitrary supported
floating-point type" for ``data`` and ``slope``.

The slope's shape (the Note of the page): of rank >= 1 (a 0-D slope is a SpecViolation); a 1-D slope whose one
dimension equals data's second (the channels) applies per channel (along axis 1); any other slope broadcasts to
data by numpy's rules, and the output has data's shape (a slope that would enlarge it is a SpecViolation). The
product is correctly rounded (IEEE), so the result is exact.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._mapped import mapped
from .schema import OV_FLOATS, Port, Schema

SCHEMA = Schema("openvino", "PReLU", (1,), inputs=(Port("data"), Port("slope")), outputs=(Port("y"),),
                types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _shape(label: str, shapes: list[tuple[int, ...]], attributes: dict[str, Any]
           ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    data, slope = tuple(shapes[0]), tuple(shapes[1])
    if len(slope) < 1:
        raise SpecViolation(f"{label}: slope must have rank >= 1, got a 0-D tensor")
    if len(slope) == 1 and len(data) >= 2 and slope[0] == data[1]:  # per channel: axis 1
        return data, [data, (1, slope[0]) + (1,) * (len(data) - 2)]
    try:
        stretched = tuple(np.broadcast_shapes(data, slope))
    except ValueError:
        stretched = None
    if stretched != data:
        raise SpecViolation(f"{label}: slope {list(slope)} neither matches data's channels nor broadcasts to data "
                            f"{list(data)} (numpy rules, the output keeps data's shape)")
    return data, [data, slope]


def _prelu(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    x, slope = arrays
    # the product of two half types is exact in float32, float32 and float64 multiply correctly rounded
    work = np.float32 if x.dtype.itemsize == 2 else x.dtype
    product = (x.astype(work) * slope.astype(work)).astype(x.dtype)
    return np.where(x >= 0, x, product), None


output_shapes, evaluate, magnitude = mapped(SCHEMA, _shape, _prelu)
