"""The three entry points of a windowed pooling op, built from the op's own geometry function.

Every AvgPool-style version differs only in how it reads its attributes into per-axis windows
(``geometry(since, shape, attributes) -> (axes, divisor)``); shape inference, the window bound and
evaluation follow from the axes the same way for all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._errors import SpecViolation, one_float_input
from ._windows import Axis, Divisor, max_window_elements, pool_average

Geometry = Callable[[int, tuple[int, ...], dict[str, Any]], tuple[list[Axis], Divisor]]


def require_output(op: str, axes: Sequence[Axis]) -> None:
    """An axis whose (padded) size is smaller than the (dilated) kernel extent has no output element."""
    for i, a in enumerate(axes):
        if a.out < 1:
            raise SpecViolation(
                f"{op}: spatial axis {i} of size {a.size} with pads ({a.pad_begin}, {a.pad_end}) is smaller than "
                f"the kernel extent {a.extent}: the output would be empty"
            )


def windowed_op(op: str, geometry: Geometry, integer_since: int | None = None):
    """(output_shapes, window_elements, evaluate) for an op laid out [N, C, spatial...].

    ``integer_since``: the first version whose type constraint admits integer inputs. Their average is the exact
    mean (float64: exact while a window's sum stays below 2**53) rounded to the nearest integer, ties to even - one
    representative of what the text allows, which states no rounding (docs/spec-notes.md, "V7")."""

    def output_shapes(
        since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
    ) -> list[tuple[int, ...]]:
        axes, _ = geometry(since, input_shapes[0], attributes)
        return [(*input_shapes[0][:2], *(a.out for a in axes))]

    def window_elements(
        since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
    ) -> int:
        axes, _ = geometry(since, input_shapes[0], attributes)
        return max_window_elements(axes)

    def evaluate(
        since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
    ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        x = inputs[0]
        integer = isinstance(x, np.ndarray) and x.dtype.kind in "iuO" and len(inputs) == 1
        if not (integer and integer_since is not None and since >= integer_since):
            one_float_input(op, since, inputs)
        axes, divisor = geometry(since, inputs[0].shape, attributes)
        y, mask = pool_average(inputs[0], axes, divisor)
        return [y], [mask]

    return output_shapes, window_elements, evaluate
