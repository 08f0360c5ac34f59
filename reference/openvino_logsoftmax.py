"""OpenVINO LogSoftmax-5: ``y_c = ln(e^{z_c} / sum_d e^{z_d})`` along ``axis`` (default 1, "any integer value",
negative counting from the back; one outside [-rank, rank - 1] names no axis: a SpecViolation), floating point.

The value: ``t - ln(sum e^t)`` with ``t = x - max`` (the text's own recommended form; reference/_softmax.py),
rounded once. Judged by the accumulation bound with K the axis length, at the scale |t| + 1: the subtraction's
rounding is at |t|'s, the logarithm of a sum of K terms in [1, K] is off by about K·u absolute.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._pnorm import round_to
from ._softmax import axis_of, lines
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "LogSoftmax", (5,), attributes=(Attribute("axis", "int", default=1),),
                inputs=(Port("x"),), outputs=(Port("y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    axis_of(SCHEMA, since, len(input_shapes[0]), attributes, negative=True)
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    shape = input_shapes[0]
    return int(shape[axis_of(SCHEMA, since, len(shape), attributes, negative=True)])


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, t, log_sum, _ = lines(SCHEMA, since, inputs, attributes, negative=True)
    with np.errstate(all="ignore"):
        return [round_to(t - log_sum, x.dtype)], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    _, t, log_sum, _ = lines(SCHEMA, since, inputs, attributes, negative=True)
    with np.errstate(all="ignore"):
        return [(np.abs(t) + 1 + np.abs(log_sum)).astype(np.float64)]
