"""OpenVINO Convolution-1 (convolution/convolution-1.rst): 1-D, 2-D or 3-D cross-correlation of the data
``[N, C_IN, Z, Y, X]`` with the kernel ``[C_OUT, C_IN, Z, Y, X]``, strides, dilations, pads_begin/pads_end and
auto_pad (explicit, same_upper, same_lower, valid) as the pools' window geometry; "T: any numeric type". The
sums and what the text leaves open: reference/_convolution.py and docs/spec-notes.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._convolution import (
    CONVOLUTION_ATTRIBUTES,
    NUMERIC,
    check_types,
    convolution_axes,
    convolution_terms,
    evaluate_wide,
    grouped_convolution,
    ranks,
)
from ._errors import SpecViolation
from .schema import Port, Schema, pooled

SCHEMA = Schema("openvino", "Convolution", (1,), attributes=CONVOLUTION_ATTRIBUTES,
                inputs=(Port("data"), Port("kernel")), outputs=(Port("output"),), axes=pooled(),
                types=((0, NUMERIC),))
VERSIONS = SCHEMA.versions


def _geometry(since: int, x: tuple[int, ...], w: tuple[int, ...], attributes: dict[str, Any]):
    label = f"Convolution-{since}"
    ranks(label, x, w, grouped=False)
    if w[1] != x[1]:
        raise SpecViolation(f"{label}: the kernel's C_IN {w[1]} differs from the input's channels {x[1]}")
    return convolution_axes(SCHEMA, since, x[2:], w[2:], attributes)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 2:
        raise SpecViolation(f"Convolution-{since} takes two inputs (data, kernel), got {len(input_shapes)}")
    x, w = tuple(input_shapes[0]), tuple(input_shapes[1])
    axes = _geometry(since, x, w, attributes)
    return [(x[0], w[0], *(a.out for a in axes))]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: C_IN times the most kernel taps of one window that land on the input."""
    x, w = tuple(input_shapes[0]), tuple(input_shapes[1])
    return convolution_terms(_geometry(since, x, w, attributes), x[1])


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 2:
        raise SpecViolation(f"Convolution-{since} takes two inputs (data, kernel), got {len(inputs)}")
    x, w = check_types(SCHEMA, since, inputs[0], inputs[1])
    axes = _geometry(since, x.shape, w.shape, attributes)
    return evaluate_wide(lambda a, b: grouped_convolution(a, b[None], axes), x, w)
