"""ONNX LpPool, since versions 1, 2, 11, 18 and 22 (domain ai.onnx).

y = (sum over the window of |x|^p)^(1/p) (reference/_pnorm.py: wide precision, one rounding).
Version differences (docs/spec-notes.md, "LpPool (ONNX)", has the evidence behind each choice):
  1  kernel_shape (listed optional with no default: required here, a window needs a size), strides, pads,
     auto_pad; p is a FLOAT (default 2.0).
  2  p is an INT (default 2); kernel_shape required.
  11 documentation only (strides default to 1, SAME gives ceil(input / stride)) - same semantics as 2.
  18 + ceil_mode and dilations.
  22 + bfloat16; in ceil mode a last window that would start in the right padding is dropped (onnx's own
     shape inference for 22 and every runtime do; the LpPool-22 text omits the sentence MaxPool-22 and
     AveragePool-22 carry).
Geometry is AveragePool's (reference/_onnx_windows.py).  Padding adds zeros, which add nothing to the sum: a
window entirely in padding (pads >= kernel, or a ceil window in the right padding before 22) is 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._errors import SpecViolation, one_float_input
from ._onnx_windows import onnx_axes
from ._pnorm import exponent, pnorm, round_to, work_dtype
from ._windows import Axis, max_window_elements
from .schema import Attribute, Port, Schema, onnx_float_types, onnx_window_attributes, pooled

OP = "LpPool"
CEIL_AND_DILATIONS, INT_P = 18, 2
#: p is a FLOAT at version 1 and an INT from 2 (GlobalLpPool's too)
P_ATTRIBUTE = (Attribute("p", "float", default=2.0, until=INT_P - 1), Attribute("p", "int", default=2, since=INT_P))
SCHEMA = Schema(
    "ai.onnx", OP, (1, 2, 11, 18, 22),
    attributes=(
        *onnx_window_attributes(dilations_since=CEIL_AND_DILATIONS),
        *P_ATTRIBUTE,
        Attribute("ceil_mode", "flag", default=0, values=(0, 1), since=CEIL_AND_DILATIONS),
    ),
    inputs=(Port("X"),), outputs=(Port("Y"),),
    types=onnx_float_types(),
    axes=pooled(),
)
VERSIONS = SCHEMA.versions


def _geometry(since: int, shape: Sequence[int], attributes: dict[str, Any]) -> tuple[list[Axis], float]:
    op = f"{OP}-{since}"
    axes = onnx_axes(op, since, shape, attributes, SCHEMA.attribute_names(since))
    return axes, exponent(since, attributes, op)


def window_terms(x: np.ndarray, axes: Sequence[Axis]) -> np.ndarray:
    """(N, C, out_1..out_n, K): |x| at every kernel tap of every window (row-major tap order), 0 outside."""
    out_shape = tuple(a.out for a in axes)
    per_axis = [a.taps() for a in axes]
    taps = list(itertools.product(*(range(a.kernel) for a in axes)))
    terms = np.zeros(x.shape[:2] + out_shape + (len(taps),), dtype=x.dtype)
    for t, j in enumerate(taps):
        pos = [per_axis[i][:, j[i]] for i in range(len(axes))]
        inside = [(q >= 0) & (q < a.size) for q, a in zip(pos, axes)]
        valid = np.ones(out_shape, dtype=bool)
        for i, m in enumerate(inside):
            valid &= m.reshape([-1 if k == i else 1 for k in range(len(axes))])
        if not valid.any():
            continue  # a tap in padding / overhang for every window: its term stays 0
        clipped = [np.clip(q, 0, a.size - 1) for q, a in zip(pos, axes)]
        terms[..., t] = np.where(valid, x[(..., *np.ix_(*clipped))], 0)
    return np.abs(terms)


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    if len(input_shapes) != 1:
        raise SpecViolation(f"{OP}-{since} takes exactly one input, got {len(input_shapes)}")
    axes, _ = _geometry(since, input_shapes[0], attributes)
    return [(*input_shapes[0][:2], *(a.out for a in axes))]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    """The largest number of input elements in one window (K of the p-norm bound; padding adds exact zeros)."""
    axes, _ = _geometry(since, input_shapes[0], attributes)
    return max_window_elements(axes)


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x = one_float_input(OP, since, inputs, SCHEMA.supported_dtypes(since))
    axes, p = _geometry(since, x.shape, attributes)
    y = pnorm(window_terms(x.astype(work_dtype(x.dtype)), axes), p)
    return [round_to(y, x.dtype)], [None]
