"""ONNX GlobalMaxPool, since versions 1 and 22 (22 adds bfloat16; semantics unchanged).

"Equivalent to MaxPool with kernel size equal to the spatial dimension of input tensor": one window per
(n, c) covering every spatial element, no padding.  Values are exact (a selection): computed in the input dtype.
The choices are MaxPool's (docs/spec-notes.md, "GlobalMaxPool (ONNX)"): a channel holding a NaN is unspecified
(NaN, mask True) because the text does not order NaN; +-inf are ordinary values; an empty spatial extent has
no maximum (unspecified).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation, check_float_input, check_rank, check_unknown_attributes
from ._global_windows import shape_functions
from .schema import Port, Schema, onnx_float_types, pooled

OP = "GlobalMaxPool"
SCHEMA = Schema("ai.onnx", OP, (1, 22), inputs=(Port("X"),), outputs=(Port("Y"),),
                types=onnx_float_types(), axes=pooled())
VERSIONS = SCHEMA.versions


def _check(since: int, shape: tuple[int, ...], attributes: dict[str, Any]) -> None:
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), f"{OP}-{since}")
    check_rank(shape, 3, None)


def _check_dtype(since: int, x: np.ndarray) -> None:
    check_float_input(x)
    name = "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)
    if name not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"{OP}-{since}: input dtype {name} is not in the type constraint "
                            f"{list(SCHEMA.supported_dtypes(since))}")


output_shapes, window_elements = shape_functions(_check)


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 1:
        raise SpecViolation(f"{OP}-{since} takes exactly one input, got {len(inputs)}")
    x = inputs[0]
    _check_dtype(since, x)
    _check(since, x.shape, attributes)
    flat = x.reshape(*x.shape[:2], -1).astype(np.float64)  # exact: every dtype here widens to float64
    out_shape = (*x.shape[:2], *([1] * (x.ndim - 2)))
    if flat.shape[-1] == 0:  # an empty spatial extent has no maximum
        return [np.full(out_shape, np.nan, dtype=x.dtype)], [np.ones(out_shape, dtype=bool)]
    nan = _has_nan(flat)
    with np.errstate(invalid="ignore"):
        # fmax skips NaN; the channels holding one are masked below.  The first of -0.0 / +0.0 maxima in
        # row-major order is kept (np.argmax returns the first), as MaxPool's ties.
        best = np.where(np.isnan(flat), -np.inf, flat)
        y = np.take_along_axis(flat, best.argmax(axis=-1)[..., None], axis=-1)[..., 0]
    y = y.reshape(out_shape).astype(x.dtype)
    mask = nan.reshape(out_shape)
    if mask.any():
        y[mask] = np.nan
        return [y], [mask]
    return [y], [None]


def _has_nan(flat: np.ndarray) -> np.ndarray:
    """Per (n, c): the channel holds a NaN (its maximum is unspecified)."""
    return np.isnan(flat).any(axis=-1)
