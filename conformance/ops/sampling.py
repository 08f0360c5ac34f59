"""Error rules of the ops that sample their input at computed coordinates (ops/propagate.py): Resize, Upsample,
GridSample, RoiAlign, DeformConv. Each output is Σ w_i·x_i over the taps around a coordinate the op computes, the
weights functions of that coordinate's fraction:

- ``nearest``: one tap, weight 1: a copy (the node applied to the input's error; exact for exact data);
- ``linear``: 2 taps per axis, w = 1 - t, t (>= 0, Σ|w| = 1, Σ|w'| = 2); ``cubic``: 4 taps per axis, Keys'
  kernel with coefficient A (Σ|w| and Σ|w'| computed from it: 1.375 and 3 for A = -0.75).

Three errors add (r the number of interpolated axes, C = Σ|w| per axis, M = max|x|):
1. the sum of K = taps^r products: (K + 2)·u·C^r·M (the accumulate bound, Σ|w_i·x_i| <= C^r·M);
2. the weights' own rounding: each is a polynomial of t evaluated in the type, at most c_w·u off (linear: 2, one
   subtraction of values <= 1; cubic: four roundings of intermediates up to max(8|A|, 3 + |A|) (6 for
   A = -0.75), and the tap distance's rounding carried by |w'| <= 3: c_w = 4·max(8|A|, 3 + |A|) + 6), then
   normalised (2 more roundings); an axis's weights together are off by (taps·c_w + 2)·u (antialiasing
   stretches the kernel over taps/scale taps, each weight scaled by the scale: the same total), so
   Σ over axes of (taps·c_w + 2)·u·C^(r-1)·M;
3. the coordinate's rounding: the op computes it from the output index, the scale, the input length L (and a
   grid, a region, an offset) with a few roundings of values up to L, so it is off by up to δ = c·u·L; each axis's
   weights then move by Σ|w'|·δ, so Σ over axes of δ·Σ|w'|·C^(r-1)·M.
The input's own error goes through the weights (the op on e(x) for linear weights >= 0; C^r·max e(x) for cubic).
"""

from __future__ import annotations

import math

import numpy as np

from conformance.ops.propagation_rules import Error, Step, _f64, unit

__all__ = ["RULES", "kernel", "weight_rounding"]

def weight_rounding(mode: str, a: float = -0.75) -> float:
    """The weights' absolute rounding error, in units of u (docstring, 2)."""
    return 2.0 if mode == "linear" else 4 * max(8 * abs(a), 3 + abs(a)) + 6
#: the coordinate's roundings (docstring, 3): output index -> input coordinate, each of a value up to L
COORDINATE_ROUNDINGS = 4.0


def kernel(mode: str, a: float = -0.75) -> tuple[float, float, int]:
    """(Σ|w|, Σ|w'|, taps) per axis of an interpolation ``mode`` (cubic: Keys' kernel with coefficient ``a``,
    sampled over the fraction's range, both at most 1 % above their sampled maximum)."""
    if mode == "linear":
        return 1.0, 2.0, 2
    t = np.linspace(0.0, 1.0, 2001)

    def w(s: np.ndarray) -> np.ndarray:
        s = np.abs(s)
        return np.where(s <= 1, ((a + 2) * s - (a + 3)) * s * s + 1,
                        np.where(s < 2, ((a * s - 5 * a) * s + 8 * a) * s - 4 * a, 0.0))

    taps = np.stack([w(1 + t), w(t), w(1 - t), w(2 - t)])
    h = 1e-7
    slope = (np.stack([w(1 + t + h), w(t + h), w(1 - t - h), w(2 - t - h)]) - taps) / h
    return 1.01 * float(np.abs(taps).sum(0).max()), 1.01 * float(np.abs(slope).sum(0).max()), 4


def _mode(step: Step, default: str = "nearest") -> str:
    mode = step.attributes.get("mode", default)
    mode = mode.decode() if isinstance(mode, bytes) else str(mode)
    return {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)


def _moved(step: Step) -> np.ndarray | None:
    """The node applied to the data's error, every other input kept (a copy, or the linear weights on it)."""
    if step.errors[0] is None:
        return None
    return np.abs(_f64(step.run([step.error(0), *step.values[1:]])[0]))


def _interpolated(step: Step, mode: str, axes: list[tuple[int, float]], taps: int | None = None,
                  magnitude: np.ndarray | None = None, a: float = -0.75) -> list[Error]:
    """The rule's three errors (docstring) for interpolated ``axes`` [(taps per axis, δ/u)]: ``taps`` overrides
    K, ``magnitude`` the Σ|w_i x_i| bound."""
    y = step.outputs[0]
    x = np.abs(_f64(step.values[0]))
    top = float(x.max(initial=0.0))
    c, d, per = kernel(mode, a)
    r = len(axes)
    k = taps if taps is not None else math.prod(n for n, _ in axes) if axes else 1
    u = unit(y, step.least)
    scale = c ** r * top if magnitude is None else magnitude
    weights = r * (per * weight_rounding(mode, a) + 2) * c ** max(r - 1, 0)
    found = (k + 2) * u * scale + weights * u * top
    found = found + sum(delta * u * d * c ** (r - 1) * top for _, delta in axes)
    moved = None
    if step.errors[0] is not None:
        moved = _moved(step) if mode == "linear" else np.full(np.shape(y), c ** r * float(step.error(0).max()))
    return [np.broadcast_to(found + (0.0 if moved is None else moved), np.shape(y))]


def resize(step: Step) -> list[Error]:
    """Resize (and Upsample): nearest a copy; linear/cubic over the axes whose length changes, antialiased
    downsampling widening each such axis's taps to taps/scale + 1."""
    mode = _mode(step)
    if mode == "nearest":
        return [_moved(step)]
    x, y = np.shape(step.values[0]), np.shape(step.outputs[0])
    antialias = int(step.attributes.get("antialias", 0))
    base = 2 if mode == "linear" else 4
    given = step.node.op_type == "Resize" and len(step.values) > 2  # Resize-11+: X, roi, scales, sizes
    roi = step.values[1] if given and step.values[1] is not None and np.size(step.values[1]) else None
    reach = float(np.abs(_f64(roi)).max()) if roi is not None else 1.0  # tf_crop_and_resize: roi in [0, 1] of L
    axes = []
    for length, out in zip(x, y):
        if length == out:  # scale 1 lands on the input's own samples: w(0) = 1, w(±1) = w(±2) = 0 exactly
            continue
        scale = out / length
        per = base * max(1, math.ceil(1 / scale)) + 1 if antialias and scale < 1 else base
        axes.append((per, COORDINATE_ROUNDINGS * max(length, out) * max(reach, 1.0)))
    a = float(step.attributes.get("cubic_coeff_a", -0.75))
    return _interpolated(step, mode, axes, a=a)


def grid_sample(step: Step) -> list[Error]:
    """GridSample: x sampled at the grid's points unnormalised to pixels ((g + 1)·L - 1)/2 or (g + 1)/2·(L - 1),
    then reflected or clamped by the padding mode: each axis's coordinate is off by a few roundings of values up to
    L·(max|g| + 1)."""
    mode = _mode(step, "linear")
    if mode == "nearest":
        return [_moved(step)]
    spatial = np.shape(step.values[0])[2:]
    reach = float(np.abs(_f64(step.values[1])).max(initial=0.0)) + 1.0
    axes = [(2 if mode == "linear" else 4, 2 * COORDINATE_ROUNDINGS * n * reach) for n in spatial]
    return _interpolated(step, mode, axes)


def roi_align(step: Step) -> list[Error]:
    """RoiAlign: per bin the average (or maximum) of sampling_ratio² bilinear samples (adaptive: ceil(roi/bin)
    per axis); the sample points from the region's corners scaled by spatial_scale, the bin size and the offset."""
    x = np.shape(step.values[0])
    rois = np.abs(_f64(step.values[1]))
    attributes = step.attributes
    scale = float(attributes.get("spatial_scale", 1.0))
    ratio = int(attributes.get("sampling_ratio", 0))
    outs = (int(attributes.get("output_height", 1)), int(attributes.get("output_width", 1)))
    if ratio > 0:
        samples = ratio * ratio
    else:
        extent = np.abs(_f64(step.values[1])[:, 2:] - _f64(step.values[1])[:, :2]) * scale
        samples = max([math.ceil(e[1] / outs[0]) * math.ceil(e[0] / outs[1]) for e in extent] or [1])
    reach = max(float(rois.max(initial=0.0)) * scale, *x[2:]) + 1.0
    axes = [(2, (COORDINATE_ROUNDINGS + 2) * reach)] * 2
    mode = attributes.get("mode", b"avg")
    taps = 4 * max(samples, 1) if mode in (b"avg", "avg") else 4
    return _interpolated(step, "linear", axes, taps=taps)


def deform_conv(step: Step) -> list[Error]:
    """DeformConv: y = Σ over C/group·kernel taps of w·mask·bilinear(x at p + offset) + b: one sum of
    K = 4·C/group·Π kernel products (+1 bias) of at most four factors (the op on |x|, |w|, |b|, |mask| with the
    offsets kept: bilinear weights are >= 0); each tap's point p + offset is off by a few roundings of values up to
    L + max|offset|, moving its bilinear value by 2δ·max|x| per axis, times |w|·|mask|."""
    values = step.values
    y = step.outputs[0]
    x, w = _f64(values[0]), _f64(values[1])
    absolute = [np.abs(_f64(v)) if i != 2 and v is not None else v for i, v in enumerate(values)]
    magnitude = _f64(step.run(absolute)[0])
    k = 4 * math.prod(w.shape[1:]) + (1 if len(values) > 3 and values[3] is not None else 0)
    mask = float(np.abs(_f64(values[4])).max(initial=1.0)) if len(values) > 4 and values[4] is not None else 1.0
    reach = max(x.shape[2:]) + float(np.abs(_f64(values[2])).max(initial=0.0)) + 1.0
    delta = COORDINATE_ROUNDINGS * reach
    per_channel = np.abs(w).reshape(w.shape[0], -1).sum(1).reshape(1, -1, *([1] * (np.ndim(y) - 2)))
    u = unit(y, step.least)
    top = float(np.abs(x).max(initial=0.0))
    found = (k + 2 + 3) * u * magnitude + 2 * 2 * delta * u * top * mask * per_channel
    # each tap's bilinear weights (2 axes of 2 taps: (2·2 + 2)·u each) on values up to max|x|, times |w|·|mask|
    found = found + 2 * (2 * weight_rounding("linear") + 2) * u * top * mask * per_channel
    return [np.broadcast_to(found, np.shape(y))]


RULES = {"Resize": resize, "Upsample": resize, "GridSample": grid_sample, "RoiAlign": roi_align,
         "DeformConv": deform_conv}
