"""Shape inference shared by the ONNX global pools: one window per (n, c) covering every spatial element.

Each op keeps its own attribute/rank check (``check``); the output shape and the window size are the same for all.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

Check = Callable[[int, tuple[int, ...], dict[str, Any]], object]


def shape_functions(check: Check) -> tuple[Callable[..., list[tuple[int, ...]]], Callable[..., int]]:
    """``output_shapes`` and ``window_elements`` of a global pool whose version rules are ``check``."""

    def output_shapes(
        since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
    ) -> list[tuple[int, ...]]:
        shape = tuple(input_shapes[0])
        check(since, shape, attributes)
        return [(*shape[:2], *([1] * (len(shape) - 2)))]

    def window_elements(
        since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
    ) -> int:
        shape = tuple(input_shapes[0])
        check(since, shape, attributes)
        return math.prod(shape[2:])

    return output_shapes, window_elements
