"""OpenVINO SoftMax-1 and SoftMax-8: ``y_c = e^{z_c} / sum_d e^{z_d}`` along ``axis`` (default 1), on floating point.

SoftMax-1's axis is "positive integer value": read as 0 .. rank - 1 (the first axis is 0; docs/spec-notes.md,
"OpenVINO SoftMax"); SoftMax-8 adds "[-rank, rank - 1]", negative counting from the back. The value: e^t over
sum e^t with t = x - max along the axis (reference/_softmax.py), judged by the accumulation bound with K the axis
length at |y|'s scale (every term is >= 0), as ONNX Softmax's family.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._softmax import softmax
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "SoftMax", (1, 8), attributes=(Attribute("axis", "int", default=1),),
                inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions

_V1 = softmax(SCHEMA, negative=False)
_V8 = softmax(SCHEMA, negative=True)


def _at(since: int):
    return _V8 if since >= 8 else _V1


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    return _at(since)[0](since, input_shapes, attributes, input_values)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    return _at(since)[1](since, inputs, attributes)


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return _at(since)[2](since, inputs, attributes)


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    return _at(since)[3](since, input_shapes, attributes, input_values)
