"""Vectorized window machinery shared by every pooling version.

A pooling window is a product of per-axis tap sets, so both the window sum and the element count
factor per axis: sums are reduced one spatial axis at a time with k strided slices (a loop over
kernel taps, never over output elements), and counts are 1-D per-axis vectors multiplied by
broadcasting.  Sums are accumulated in float64 and the quotient is rounded once to the input dtype.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)


@dataclass(frozen=True)
class Axis:
    """Geometry of one spatial axis: window o covers start(o) + j*dilation for j in [0, kernel)."""

    size: int  # input extent
    kernel: int
    stride: int
    dilation: int
    pad_begin: int
    pad_end: int
    out: int

    @property
    def extent(self) -> int:
        return (self.kernel - 1) * self.dilation + 1

    def taps(self) -> np.ndarray:
        """(out, kernel) input coordinates of every tap (may lie outside [0, size))."""
        start = np.arange(self.out, dtype=np.int64) * self.stride - self.pad_begin
        return start[:, None] + np.arange(self.kernel, dtype=np.int64)[None, :] * self.dilation


class Divisor(Enum):
    INPUT = "input"  # taps on real input elements (exclude padding)
    PADDED = "padded"  # taps on input or explicit/auto padding; the ceil-mode overhang is not padding
    KERNEL = "kernel"  # the full kernel size, whatever the window covers


def out_size(span: int, extent: int, stride: int, ceil: bool) -> int:
    """floor/ceil((span - extent) / stride) + 1, in exact integer arithmetic."""
    num = span - extent
    return (-(-num // stride) if ceil else num // stride) + 1


def same_pads(size: int, extent: int, stride: int, upper: bool) -> tuple[int, int, int]:
    """SAME_*: out = ceil(size / stride); total pad split evenly, the odd one at the end (upper)."""
    out = -(-size // stride)
    total = max(0, (out - 1) * stride + extent - size)
    small = total // 2
    return (small, total - small, out) if upper else (total - small, small, out)


def torch_drop_last(axis_out: int, size: int, stride: int, pad_begin: int) -> int:
    """PyTorch's ceil-mode correction: the last window may not start at or after size + pad_begin."""
    if axis_out > 0 and (axis_out - 1) * stride >= size + pad_begin:
        return axis_out - 1
    return axis_out


def axis_counts(axis: Axis, divisor: Divisor) -> tuple[np.ndarray, np.ndarray]:
    """Per-output-position (elements on input, divisor) along one axis."""
    pos = axis.taps()
    on_input = ((pos >= 0) & (pos < axis.size)).sum(axis=1)
    if divisor is Divisor.INPUT:
        div = on_input
    elif divisor is Divisor.PADDED:
        div = ((pos >= -axis.pad_begin) & (pos < axis.size + axis.pad_end)).sum(axis=1)
    else:
        div = np.full(axis.out, axis.kernel, dtype=np.int64)
    return on_input, div


def max_window_elements(axes: Sequence[Axis]) -> int:
    return math.prod(int(axis_counts(a, Divisor.INPUT)[0].max(initial=0)) for a in axes)


def _window_sum_axis(x: np.ndarray, ax: int, axis: Axis) -> np.ndarray:
    """Sum over windows along array axis `ax`, zero outside the input; output length axis.out."""
    if axis.out == 0:
        shape = list(x.shape)
        shape[ax] = 0
        return np.zeros(shape, dtype=np.float64)
    first = -axis.pad_begin
    last = (axis.out - 1) * axis.stride - axis.pad_begin + axis.extent  # one past the last tap
    lo, hi = max(0, -first), max(0, last - axis.size)
    if lo or hi:
        # Zero-pad only this axis, only as far as some tap reaches (pads can exceed what is used).
        widths = [(0, 0)] * x.ndim
        widths[ax] = (lo, hi)
        x = np.pad(x, widths)
    base = first + lo
    index: list[slice] = [slice(None)] * x.ndim

    def tap(j: int) -> np.ndarray:
        s = base + j * axis.dilation
        index[ax] = slice(s, s + (axis.out - 1) * axis.stride + 1, axis.stride)
        return x[tuple(index)]

    # The first add allocates the accumulator; the remaining taps are added in place.
    acc = tap(0).copy() if axis.kernel == 1 else tap(0) + tap(1)
    for j in range(2, axis.kernel):
        acc += tap(j)
    return acc


def to_dtype(y: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Round float64 once to `dtype` (round-to-nearest-even; an integer dtype: the nearest integer, ties to even,
    0 where the value is NaN - an unspecified element)."""
    if np.dtype(dtype).kind in "iu":
        return np.where(np.isnan(y), 0.0, np.rint(y)).astype(dtype)
    if dtype == BF16:
        # ml_dtypes converts float64 -> bfloat16 through float32 (double rounding).  Rounding to
        # float32 with round-to-odd first makes the second rounding exact (24 bits >= 8 + 2).
        y32 = y.astype(np.float32)
        inexact = (y32.astype(np.float64) != y) & np.isfinite(y)
        even = (y32.view(np.uint32) & 1) == 0
        fix = inexact & even
        if fix.any():
            toward = np.where(y > y32, np.float32(np.inf), np.float32(-np.inf))
            y32[fix] = np.nextafter(y32[fix], toward[fix])
        return y32.astype(BF16)
    return y.astype(dtype)


def pool_average(x: np.ndarray, axes: Sequence[Axis], divisor: Divisor) -> tuple[np.ndarray, np.ndarray | None]:
    """Average pooling of an N, C, spatial... array.  Returns (output in x.dtype, unspecified mask or None).

    Windows whose divisor is zero (no counted element) are unspecified: NaN value, True in the mask.
    """
    lead = x.ndim - len(axes)
    acc = x.astype(np.float64)
    for i, axis in enumerate(axes):
        acc = _window_sum_axis(acc, lead + i, axis)
    div: np.ndarray | None = None
    for i, axis in enumerate(axes):
        _, d = axis_counts(axis, divisor)
        shape = [1] * len(axes)
        shape[i] = axis.out
        d = d.reshape(shape)
        div = d if div is None else div * d
    if div is None:  # no spatial axes: nothing to average
        return x.copy(), None
    empty = div == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        if np.all(div == div.flat[0]) and not empty.any():
            # uniform divisor (the common interior case): one scalar division, no broadcast temp
            acc /= float(div.flat[0])
        else:
            acc /= div.astype(np.float64)
    if empty.any():
        acc[..., empty] = np.nan
        mask = np.broadcast_to(empty, acc.shape).copy()
    else:
        mask = None
    return to_dtype(acc, x.dtype), mask


def make_axes(
    sizes: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    auto_pad: str,
    ceil: bool,
    torch_ceil: bool = False,
) -> list[Axis]:
    """Per-axis geometry for the common explicit / same_upper / same_lower / valid padding modes.

    `ceil` selects ceil rounding of the explicit and valid formulas; `torch_ceil` additionally applies
    PyTorch's rule that the last window may not start in the right padding (ONNX-22, OpenVINO ceil_torch).
    Shapes whose output extent would be < 1 are rejected by the caller (they know the spec wording).
    """
    axes = []
    for i, size in enumerate(sizes):
        k, s, d = kernel[i], strides[i], dilations[i]
        extent = (k - 1) * d + 1
        if auto_pad in ("same_upper", "same_lower"):
            pb, pe, out = same_pads(size, extent, s, auto_pad == "same_upper")
        else:
            pb, pe = (0, 0) if auto_pad == "valid" else (pads_begin[i], pads_end[i])
            out = out_size(size + pb + pe, extent, s, ceil)
            if ceil and torch_ceil:
                out = torch_drop_last(out, size, s, pb)
        axes.append(Axis(size, k, s, d, pb, pe, max(out, 0)))
    return axes
