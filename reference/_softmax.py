"""What OpenVINO SoftMax-1, SoftMax-8 and LogSoftmax-5 share: the axis the text allows, and the values in wide
precision along it (``t = x - max(x)``, e^t over its sum; its logarithm ``t - ln(sum e^t)``), rounded once.

The value is the mathematical one whatever the inputs' range: subtracting the maximum keeps every e^t in [0, 1]
(the text's own note for LogSoftmax). A line holding +inf has no finite maximum to subtract: its elements follow
IEEE arithmetic of the formula (NaN), and a NaN makes its line NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation, one_float_input
from ._pnorm import round_to, work_dtype
from .schema import Schema


def axis_of(schema: Schema, since: int, rank: int, attributes: dict[str, Any], negative: bool) -> int:
    """The normalised axis; ``negative``: the version counts negative axes from the back (else they are invalid)."""
    axis = attributes_of(schema, since, attributes)["axis"]
    low = -rank if negative else 0
    if not low <= axis < rank:
        raise SpecViolation(f"{schema.op}-{since}: axis {axis} is outside [{low}, {rank - 1}] for a rank-{rank} input")
    return axis % rank


def lines(schema: Schema, since: int, inputs: list[np.ndarray], attributes: dict[str, Any], negative: bool
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(x, t = x - max along the axis, ln(sum e^t) along it, the axis), in the wide type."""
    x = one_float_input(schema.op, since, inputs, schema.supported_dtypes(since))
    axis = axis_of(schema, since, x.ndim, attributes, negative)
    wide = x.astype(work_dtype(x.dtype))
    with np.errstate(all="ignore"):
        empty = np.zeros_like(wide.sum(axis, keepdims=True))  # a line of no element: nothing to subtract
        top = np.max(wide, axis=axis, keepdims=True) if wide.shape[axis] else empty
        t = wide - top
        log_sum = np.log(np.sum(np.exp(t), axis=axis, keepdims=True))
    return x, t, log_sum, axis


def softmax(schema: Schema, negative: bool):
    """(output_shapes, evaluate, magnitude, window_elements) of SoftMax at a version."""

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        axis_of(schema, since, len(input_shapes[0]), attributes, negative)
        return [tuple(input_shapes[0])]

    def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                        input_values: dict[int, np.ndarray] | None = None) -> int:
        """K: the denominator sums the axis's e^t."""
        shape = input_shapes[0]
        return int(shape[axis_of(schema, since, len(shape), attributes, negative)])

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        x, t, log_sum, _ = lines(schema, since, inputs, attributes, negative)
        with np.errstate(all="ignore"):
            return [round_to(np.exp(t - log_sum), x.dtype)], [None]

    def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
        """Every term e^t is >= 0: the bound scales with |y| itself (no cancellation)."""
        x, t, log_sum, _ = lines(schema, since, inputs, attributes, negative)
        with np.errstate(all="ignore"):
            return [np.abs(np.exp(t - log_sum)).astype(np.float64)]

    return output_shapes, evaluate, magnitude, window_elements
