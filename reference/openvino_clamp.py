"""OpenVINO Clamp-1: ``min(max(x, min), max)`` element-wise, "any numeric type"; ``min`` and ``max`` required floats.

"In case of integral numeric type, ceil is used to convert min from float to T and floor is used to convert max
from float to T" (then saturated to T's range). The text says the output is "within the range [min, max]": a
``min`` above ``max`` (an empty range) is a SpecViolation, and a NaN input has no place in the range: its element
is unspecified (docs/spec-notes.md, "OpenVINO activations").
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._elementwise import elementwise
from ._errors import SpecViolation
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Clamp", (1,),
                attributes=(Attribute("min", "float", required=True), Attribute("max", "float", required=True)),
                inputs=(Port("x"),), outputs=(Port("y"),), types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _bounds(x: np.ndarray, attributes: dict[str, Any]) -> tuple[Any, Any]:
    low, high = attributes["min"], attributes["max"]
    if x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        return (x.dtype.type(min(max(math.ceil(low), info.min), info.max)),
                x.dtype.type(min(max(math.floor(high), info.min), info.max)))
    return x.dtype.type(low), x.dtype.type(high)


def _clamp(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    low, high = _bounds(x, attributes)
    return np.minimum(np.maximum(x, low), high)


def _check(since: int, attributes: dict[str, Any]) -> None:
    low, high = attributes["min"], attributes["max"]
    if not low <= high:  # NaN bounds too
        raise SpecViolation(f"Clamp-{since}: min={low} > max={high} - the range [min, max] is empty")


def _unspecified(x: np.ndarray, attributes: dict[str, Any]) -> np.ndarray:
    return np.isnan(x) if x.dtype.kind not in "iu" else np.zeros(x.shape, dtype=bool)


output_shapes, evaluate, magnitude = elementwise(SCHEMA, _clamp, check=_check, unspecified=_unspecified)
