"""A deliberately naive oracle for ONNX MaxUnpool: a loop over every element of X, written from the spec text and
the choices of docs/spec-notes.md, "MaxUnpool (ONNX)". It shares no code with `reference`.

``maxunpool`` returns {reading: (output, unspecified mask)} or raises Invalid where the reference must raise
SpecViolation.
"""

from __future__ import annotations

import itertools
import math

import numpy as np


class Invalid(Exception):
    """The input breaks the text (or a choice recorded in spec-notes): the reference must raise SpecViolation."""


def default_shape(x_shape, attrs: dict) -> list[int]:
    n = len(x_shape) - 2
    kernel = list(attrs["kernel_shape"])
    strides = list(attrs.get("strides", [1] * n))
    pads = list(attrs.get("pads", [0] * (2 * n)))
    out = [x_shape[0], x_shape[1]]
    for a in range(n):
        # MaxPool's floor formula solved for its smallest input: in = (out - 1) * stride + kernel - pads
        d = (x_shape[2 + a] - 1) * strides[a] + kernel[a] - pads[a] - pads[a + n]
        if d < 1:
            raise Invalid(f"axis {a}: default extent {d}")
        out.append(d)
    return out


def _unflatten(index: int, shape) -> tuple[int, ...]:
    """Row-major position of a flat index ("computed considering the tensor as flattened 1-D tensor")."""
    pos = []
    for size in reversed(shape):
        pos.append(index % size)
        index //= size
    return tuple(reversed(pos))


def _write(x: np.ndarray, indices: np.ndarray, layout, out_shape, offset_ok) -> tuple[np.ndarray, np.ndarray]:
    """Scatter every X element to the position its index names in ``layout``; positions written with two
    different values are unspecified."""
    y = np.zeros(out_shape, dtype=np.float64)
    mask = np.zeros(out_shape, dtype=bool)
    written: dict[tuple[int, ...], list[float]] = {}
    for pos in itertools.product(*(range(s) for s in x.shape)):
        target = _unflatten(int(indices[pos]), layout)
        assert offset_ok(target)
        written.setdefault(target, []).append(float(x[pos]))
    for target, values in written.items():
        first = values[0]
        same = all((v == first) or (math.isnan(v) and math.isnan(first)) for v in values)
        if same:
            y[target] = first
        else:
            y[target] = np.nan
            mask[target] = True
    return y.astype(x.dtype), mask


def maxunpool(x: np.ndarray, indices: np.ndarray, attrs: dict, output_shape=None) -> dict:
    if indices.shape != x.shape:
        raise Invalid("I must have X's dimensions")
    default = default_shape(x.shape, attrs)
    if output_shape is None:
        out = default
    else:
        out = [int(v) for v in output_shape]
        if len(out) != x.ndim or out[:2] != default[:2] or any(o < d for o, d in zip(out[2:], default[2:])):
            raise Invalid(f"output_shape {out} vs default {default}")
    total = math.prod(out)
    if any(not 0 <= int(v) < total for v in indices.flat):
        raise Invalid("index out of range")
    found = {}
    if all(int(v) < math.prod(default) for v in indices.flat):
        # indices address the default shape; that block sits at the start of every axis of the output
        found["default_layout"] = _write(x, indices, default, out, lambda t: all(p < d for p, d in zip(t, default)))
    found["output_layout"] = _write(x, indices, out, out, lambda t: True)
    return found
