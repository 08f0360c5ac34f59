"""OpenVINO ShapeOf-1 and ShapeOf-3: a 1-D tensor holding the input's dimensions, empty for a scalar
(shape/shape-of-1.rst, shape-of-3.rst). ShapeOf-1 names no output type: int64 (docs/spec-notes.md, "OpenVINO shape
and data movement"); ShapeOf-3's ``output_type`` chooses i64 (the default) or i32.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._movement import ANY_SUPPORTED, ANY_TYPE, movement
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "ShapeOf", (1, 3),
                attributes=(Attribute("output_type", "enum", default="i64", values=("i64", "i32"), since=3),),
                inputs=(Port("data"),), outputs=(Port("output", dtype="int64", dtype_attribute="output_type"),),
                types=((0, ANY_SUPPORTED), (3, ANY_TYPE)))
VERSIONS = SCHEMA.versions


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    dtype = np.int32 if attrs.get("output_type") == "i32" else np.int64
    return [np.array(data[0].shape, dtype=dtype).reshape(-1)]


output_shapes, evaluate = movement(SCHEMA, _compute)
