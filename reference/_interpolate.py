"""The arithmetic of OpenVINO Interpolate-4 and -11 as Interpolate-4's text spells it in Python (its
``InterpolateCalculation``): pads first, the output shape, the scale per axis, then each mode as one separable
weighting per interpolated axis (the code's weights are products over the axes, and its normalisation by ``wsum``
factors the same way), in float64.

Per axis, for every output index, the taps (input indices) and their weights:
- ``nearest``: one tap, the coordinate rounded by ``nearest_mode``, clipped to the axis;
- ``linear``: taps round(c) - r .. round(c) + r inside the axis, weights triangle(a·(c - tap)) normalised by their
  sum (a = the scale with antialias when any axis downsamples, else 1; r = 2 where the scale > 1, else
  ceil(2/a)); a zero sum gives 0;
- ``linear_onnx``: c clipped to [0, L - 1], taps int(c) and the next (clipped), weights |c - tap2|, |c - tap1|
  (0.5 each where the taps coincide);
- ``cubic``: taps floor(c) - 1 .. floor(c) + 2 clipped to the axis, Keys' weights of c - floor(c) with cube_coeff.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ._errors import SpecViolation

COORDINATE_MODES = ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")
#: the coordinate's rounding in a float32 kernel: a few roundings of values up to the axis length (docs/tolerance.md)
COORDINATE_ROUNDINGS = 4
U32 = 2.0 ** -24


def coordinate(mode: str, out: np.ndarray, scale: float, length_out: int, length_in: int) -> np.ndarray:
    """The text's GetOriginalCoordinate, in float64."""
    out = out.astype(np.float64)
    if mode == "half_pixel":
        return (out + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (out + 0.5) / scale - 0.5 if length_out > 1 else np.zeros_like(out)
    if mode == "asymmetric":
        return out / scale
    if mode == "tf_half_pixel_for_nn":
        return (out + 0.5) / scale
    return np.zeros_like(out) if length_out == 1 else out * (length_in - 1) / (length_out - 1)


def nearest(mode: str, c: np.ndarray, downsample: bool) -> tuple[np.ndarray, np.ndarray]:
    """(the rounded coordinate, where the text's readings differ): round_prefer_ceil is "round half up" in words,
    Python's round (half to even) in the text's code; the others agree."""
    floor = np.floor(c)
    half = c == floor + 0.5
    if mode == "round_prefer_floor":
        return np.where(half, floor, np.round(c)), np.zeros(c.shape, bool)
    if mode == "round_prefer_ceil":
        up = np.floor(c + 0.5)
        return up, half & (np.round(c) != up)
    if mode == "floor":
        return floor, np.zeros(c.shape, bool)
    if mode == "ceil" or (mode == "simple" and downsample):
        return np.ceil(c), np.zeros(c.shape, bool)
    return np.trunc(c), np.zeros(c.shape, bool)


def cubic_coefficients(s: np.ndarray, a: float) -> np.ndarray:
    """The text's get_cubic_coeff for every s: [n, 4]."""
    s = np.abs(s)[:, None]
    return np.concatenate([a * (s - 1.0) * (s - 1.0) * s,
                           ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0,
                           (((-a - 2.0) * s + (2.0 * a + 3.0)) * s - a) * s,
                           -a * s * s * (s - 1.0)], axis=1)


def axis_weights(mode: str, c: np.ndarray, length: int, scale: float, a: float, cube_coeff: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(taps [n, T] int, weights [n, T]) of one axis for the output coordinates ``c`` (module docstring)."""
    if mode == "linear":
        r = 2 if scale > 1.0 else int(math.ceil(2.0 / a))
        base = np.round(c).astype(np.int64)  # the text's round(): half to even
        taps = base[:, None] + np.arange(-r, r + 1)[None, :]
        inside = (taps >= 0) & (taps < length)
        w = np.where(inside, np.maximum(0.0, 1.0 - np.abs(a * (c[:, None] - taps))), 0.0)
        total = w.sum(axis=1, keepdims=True)
        w = np.divide(w, total, out=np.zeros_like(w), where=total != 0)
        return np.clip(taps, 0, length - 1), w
    if mode == "linear_onnx":
        clipped = np.clip(c, 0, length - 1)
        first = np.clip(np.trunc(clipped).astype(np.int64), 0, length - 1)
        second = np.minimum(first + 1, length - 1)
        d1, d2 = np.abs(clipped - first), np.abs(clipped - second)
        same = first == second
        d1, d2 = np.where(same, 0.5, d1), np.where(same, 0.5, d2)
        return np.stack([first, second], axis=1), np.stack([d2, d1], axis=1)
    floor = np.floor(c)
    taps = np.clip(floor.astype(np.int64)[:, None] + np.arange(-1, 3)[None, :], 0, length - 1)
    return taps, cubic_coefficients(c - floor, cube_coeff)


def apply(x: np.ndarray, axis: int, taps: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Σ_t weights[o, t]·x[..., taps[o, t], ...] along ``axis``."""
    moved = np.moveaxis(x, axis, -1)
    out = (moved[..., taps] * weights).sum(axis=-1)
    return np.moveaxis(out, -1, axis)


def linear_onnx_axes(rank: int, axes: Sequence[int]) -> None:
    """The note: linear_onnx only on 2-D to 5-D inputs with axes {0, 1}, {0, 1, 2}, {2, 3}, {2, 3, 4}."""
    allowed = {2: {0, 1}, 3: {0, 1, 2}, 4: {2, 3}, 5: {2, 3, 4}}
    if allowed.get(rank) != set(axes):
        raise SpecViolation(f"linear_onnx is defined for 2-D..5-D inputs with axes {{0, 1}}, {{0, 1, 2}}, {{2, 3}}, "
                            f"{{2, 3, 4}} only, got rank {rank} and axes {list(axes)}")
