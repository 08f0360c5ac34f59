"""The members of ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1 (one schema shape, the kernel's
group axis the only difference): reference/_convolution.py holds the geometry and the sums."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._convolution import (
    BACKPROP_ATTRIBUTES,
    NUMERIC,
    backprop,
    backprop_sizes,
    backprop_terms,
    check_types,
    evaluate_wide,
    ranks,
)
from ._errors import SpecViolation
from .schema import OV_INTEGERS, Port, Schema, pooled


def backprop_schema(op: str) -> Schema:
    return Schema("openvino", op, (1,), attributes=BACKPROP_ATTRIBUTES,
                  inputs=(Port("data"), Port("kernel"),
                          Port("output_shape", dtype="int64", dtypes=OV_INTEGERS, optional=True)),
                  outputs=(Port("output"),), axes=pooled(), types=((0, NUMERIC),))


def backprop_members(schema: Schema, grouped: bool) -> tuple[Callable[..., list[tuple[int, ...]]],
                                                             Callable[..., int], Callable[..., Any]]:
    """(output_shapes, window_elements, evaluate) of the op; ``grouped``: the kernel is [G, C_IN, C_OUT, ...]."""

    def grouped_kernel(w: tuple[int, ...]) -> tuple[int, ...]:
        return w if grouped else (1, *w)

    def geometry(since: int, x: tuple[int, ...], w: tuple[int, ...], attributes: dict[str, Any], shape: Any):
        label = f"{schema.op}-{since}"
        ranks(label, x, w, grouped)
        g = grouped_kernel(w)
        if g[0] < 1 or x[1] != g[0] * g[1]:
            raise SpecViolation(f"{label}: the input's {x[1]} channels are not GROUPS·C_IN = {g[0]}·{g[1]}")
        return g, backprop_sizes(schema, since, x[2:], g[3:], attributes, shape)

    def inputs_of(since: int, count: int) -> None:
        if count not in (2, 3):
            raise SpecViolation(f"{schema.op}-{since} takes two or three inputs (data, kernel[, output_shape]), "
                                f"got {count}")

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        inputs_of(since, len(input_shapes))
        shape = None
        if len(input_shapes) == 3:
            shape = (input_values or {}).get(2)
            if shape is None:
                raise ValueError(f"{schema.op}-{since}: the value of input 2 (output_shape) is needed")
        x = tuple(input_shapes[0])
        g, (_, _, _, sizes) = geometry(since, x, tuple(input_shapes[1]), attributes, shape)
        return [(x[0], g[0] * g[2], *sizes)]

    def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                        input_values: dict[int, np.ndarray] | None = None) -> int:
        """K: C_IN (of one group) times the most (input element, tap) pairs one output element sums."""
        shape = (input_values or {}).get(2) if len(input_shapes) == 3 else None
        x = tuple(input_shapes[0])
        g, (strides, dilations, begins, sizes) = geometry(since, x, tuple(input_shapes[1]), attributes, shape)
        return backprop_terms(strides, dilations, begins, sizes, x[2:], g[3:], g[1])

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        inputs_of(since, len(inputs))
        x, w = check_types(schema, since, inputs[0], inputs[1])
        shape = inputs[2] if len(inputs) == 3 else None
        if shape is not None and np.asarray(shape).dtype.kind not in "O" and \
                np.asarray(shape).dtype.name not in OV_INTEGERS:
            raise SpecViolation(f"{schema.op}-{since}: output_shape is of an integer type (T2)")
        g, (strides, dilations, begins, sizes) = geometry(since, x.shape, w.shape, attributes, shape)
        return evaluate_wide(lambda a, b: backprop(a, b.reshape(g), strides, dilations, begins, sizes), x, w)

    return output_shapes, window_elements, evaluate
