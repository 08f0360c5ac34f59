"""OpenVINO GroupConvolution-1 (convolution/group-convolution-1.rst): the data ``[N, GROUPS·C_IN, Z, Y, X]`` split
into GROUPS groups, each convolved with its kernel ``[GROUPS, C_OUT, C_IN, Z, Y, X]`` as Convolution-1 does, the
results concatenated to ``[N, GROUPS·C_OUT, ...]``; the number of groups is the kernel's first extent. The same
attributes as Convolution (reference/_convolution.py, docs/spec-notes.md).
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

SCHEMA = Schema("openvino", "GroupConvolution", (1,), attributes=CONVOLUTION_ATTRIBUTES,
                inputs=(Port("data"), Port("kernel")), outputs=(Port("output"),), axes=pooled(),
                types=((0, NUMERIC),))
VERSIONS = SCHEMA.versions


def _geometry(since: int, x: tuple[int, ...], w: tuple[int, ...], attributes: dict[str, Any]):
    label = f"GroupConvolution-{since}"
    ranks(label, x, w, grouped=True)
    if w[0] < 1 or x[1] != w[0] * w[2]:
        raise SpecViolation(f"{label}: the input's {x[1]} channels are not GROUPS·C_IN = {w[0]}·{w[2]}")
    return convolution_axes(SCHEMA, since, x[2:], w[3:], attributes)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 2:
        raise SpecViolation(f"GroupConvolution-{since} takes two inputs (data, kernel), got {len(input_shapes)}")
    x, w = tuple(input_shapes[0]), tuple(input_shapes[1])
    axes = _geometry(since, x, w, attributes)
    return [(x[0], w[0] * w[1], *(a.out for a in axes))]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: C_IN (of one group) times the most kernel taps of one window that land on the input."""
    x, w = tuple(input_shapes[0]), tuple(input_shapes[1])
    return convolution_terms(_geometry(since, x, w, attributes), w[2])


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 2:
        raise SpecViolation(f"GroupConvolution-{since} takes two inputs (data, kernel), got {len(inputs)}")
    x, w = check_types(SCHEMA, since, inputs[0], inputs[1])
    axes = _geometry(since, x.shape, w.shape, attributes)
    return evaluate_wide(lambda a, b: grouped_convolution(a, b, axes), x, w)
