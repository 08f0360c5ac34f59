"""What the OpenVINO convolutions share (Convolution-1, GroupConvolution-1, ConvolutionBackpropData-1,
GroupConvolutionBackpropData-1): attributes, the window geometry, and the sums, in wide precision.

Convolution: ``y[n, g·Co + o, p] = Σ_c Σ_k x[n, g·Ci + c, p·s + k·d − pb] · w[g, o, c, k]`` over the kernel taps k
that land on the input (padding holds zeros, so it adds no term); the output extent is the pools' (``_windows``:
``floor((n + pb + pe − ((k − 1)·d + 1)) / s) + 1``, the text's ``(n + 2p − k)/s + 1`` with dilations and
asymmetric pads; same_upper/same_lower ``ceil(n / s)`` with the odd padding at the end/beginning; valid no pads).

Backprop ("transposed convolution", applied "in the backward way"): each input element spreads over the output,
``F[n, g·Co + o, i·s + k·d] += x[n, g·Ci + c, i] · w[g, c, o, k]`` on the full extent
``s·(X − 1) + (K − 1)·d + 1``, then ``y[o] = F[o + pads_begin]`` for the output extent the text gives (zero where
``o + pads_begin`` falls outside F: a negative padding, as ``output_shape`` can make it, widens the output with
zeros, and ``output_padding`` unlocks elements past F's end).

The value: floating-point products summed in float64 (float64 in long double) and rounded once; integers exactly
(Python ints), a result the type cannot hold unspecified (the texts say nothing of overflow).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype
from ._windows import Axis, make_axes, max_window_elements
from .schema import OV_AUTO_PAD, OV_FLOATS, OV_INTEGERS, Attribute, Schema

#: "T: any numeric type"
NUMERIC = (*OV_FLOATS, *OV_INTEGERS)

CONVOLUTION_ATTRIBUTES = (
    Attribute("strides", "ints", required=True),
    Attribute("pads_begin", "ints", required=True),
    Attribute("pads_end", "ints", required=True),
    Attribute("dilations", "ints", required=True),
    Attribute("auto_pad", "enum", default="explicit", values=OV_AUTO_PAD),
)
#: the backprop pages: pads "May be omitted" (though marked required: docs/spec-notes.md), output_padding
BACKPROP_ATTRIBUTES = (
    Attribute("strides", "ints", required=True),
    Attribute("pads_begin", "ints", default="0 per axis"),
    Attribute("pads_end", "ints", default="0 per axis"),
    Attribute("dilations", "ints", required=True),
    Attribute("auto_pad", "enum", default="explicit", values=OV_AUTO_PAD),
    Attribute("output_padding", "ints", default="0 per axis"),
)


def ints(label: str, name: str, value: Any, count: int, low: int) -> list[int]:
    """An ``int[]`` attribute with one value per spatial axis (a bare int from a 1-D IR example: one value)."""
    values = [value] if isinstance(value, int | np.integer) and not isinstance(value, bool) else value
    if not isinstance(values, list | tuple) or not all(
            isinstance(v, int | np.integer) and not isinstance(v, bool) for v in values):
        raise SpecViolation(f"{label}: {name} is an int[] attribute, got {value!r}")
    if len(values) != count:
        raise SpecViolation(f"{label}: {name} has {len(values)} values for {count} spatial axes")
    if any(v < low for v in values):
        raise SpecViolation(f"{label}: {name} {list(values)} - values from {low}")
    return [int(v) for v in values]


def check_types(schema: Schema, since: int, x: Any, w: Any) -> tuple[np.ndarray, np.ndarray]:
    """Data and kernel: tensors of one type T in the constraint (object arrays: the exact pass, unchecked)."""
    label = f"{schema.op}-{since}"
    x = np.asarray(x) if isinstance(x, np.generic) else x
    if not isinstance(x, np.ndarray) or not isinstance(w, np.ndarray):
        raise SpecViolation(f"{label}: data and kernel are tensors")
    if x.dtype.kind != "O" or w.dtype.kind != "O":
        if x.dtype != w.dtype:
            raise SpecViolation(f"{label}: data and kernel are both of type T, got {x.dtype} and {w.dtype}")
        name = "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)
        if name not in schema.supported_dtypes(since):
            raise SpecViolation(f"{label}: type {name} is not in the type constraint")
    return x, w


def ranks(label: str, x: tuple[int, ...], w: tuple[int, ...], grouped: bool) -> int:
    """The spatial rank (1-3): data of rank 3-5, the kernel of the same rank (one more when grouped)."""
    if not 3 <= len(x) <= 5:
        raise SpecViolation(f"{label}: the input has rank {len(x)}; the text allows 3, 4 or 5")
    if len(w) != len(x) + int(grouped):
        raise SpecViolation(f"{label}: the kernel has rank {len(w)}; a rank-{len(x)} input takes "
                            f"{len(x) + int(grouped)}")
    return len(x) - 2


def convolution_axes(schema: Schema, since: int, x: tuple[int, ...], kernel: tuple[int, ...],
                     attributes: dict[str, Any]) -> list[Axis]:
    """The per-axis window geometry of a forward convolution (strides, dilations >= 1: a stride of 0 has no
    output extent, a dilation of 0 no kernel extent - docs/spec-notes.md)."""
    label = f"{schema.op}-{since}"
    found = attributes_of(schema, since, attributes)
    rank = len(kernel)
    strides = ints(label, "strides", found["strides"], rank, 1)
    dilations = ints(label, "dilations", found["dilations"], rank, 1)
    pb = ints(label, "pads_begin", found["pads_begin"], rank, 0)
    pe = ints(label, "pads_end", found["pads_end"], rank, 0)
    axes = make_axes(x, kernel, strides, dilations, pb, pe, found["auto_pad"], ceil=False)
    if any(k < 1 for k in kernel) or any(a.out < 1 for a in axes):
        raise SpecViolation(f"{label}: the kernel {list(kernel)} leaves no output over the (padded) input {list(x)}")
    return axes


def _tap_slices(axes: list[Axis], offsets: tuple[int, ...], lead: int, padded_starts: list[int]) -> tuple:
    index = [slice(None)] * lead
    for axis, k, start in zip(axes, offsets, padded_starts):
        begin = start + k * axis.dilation
        index.append(slice(begin, begin + (axis.out - 1) * axis.stride + 1, axis.stride))
    return tuple(index)


def _pad(x: np.ndarray, axes: list[Axis]) -> tuple[np.ndarray, list[int]]:
    """x zero-padded so that every tap of every window lies inside; each axis's index of tap 0 of window 0."""
    widths, starts = [(0, 0), (0, 0)], []
    for axis in axes:
        lo = max(0, axis.pad_begin)
        last = (axis.out - 1) * axis.stride - axis.pad_begin + axis.extent
        hi = max(0, last - axis.size)
        widths.append((lo, hi))
        starts.append(lo - axis.pad_begin)
    if x.dtype.kind == "O":
        out = np.zeros(tuple(n + a + b for n, (a, b) in zip(x.shape, widths)), dtype=object)
        out[tuple(slice(a, a + n) for n, (a, _) in zip(x.shape, widths))] = x
        return out, starts
    return np.pad(x, widths), starts


def grouped_convolution(x: np.ndarray, w: np.ndarray, axes: list[Axis]) -> np.ndarray:
    """x [N, G·Ci, spatial], w [G, Co, Ci, k...] -> [N, G·Co, out...], summed exactly (object) or in x's type."""
    groups, c_out, c_in = w.shape[:3]
    n = x.shape[0]
    padded, starts = _pad(x, axes)
    out = tuple(a.out for a in axes)
    y = np.zeros((n, groups, c_out, *out), dtype=x.dtype)
    for offsets in np.ndindex(*w.shape[3:]):
        tap = padded[_tap_slices(axes, offsets, 2, starts)].reshape(n, groups, c_in, *out)
        weights = w[(slice(None), slice(None), slice(None), *offsets)]  # [G, Co, Ci]
        for g in range(groups):  # products summed by NumPy's ufuncs (IEEE: 0·NaN is NaN; BLAS may skip a 0 weight)
            for c in range(c_in):
                y[:, g] += tap[:, g, c][:, None] * weights[g, :, c].reshape((c_out,) + (1,) * len(out))
    return y.reshape(n, groups * c_out, *out)


def backprop_sizes(schema: Schema, since: int, x: tuple[int, ...], kernel: tuple[int, ...],
                   attributes: dict[str, Any], output_shape: Any) -> tuple[list[int], list[int], list[int],
                                                                     list[int]]:
    """(strides, dilations, pads_begin per axis, the output extent per axis) by the page's two formulas."""
    label = f"{schema.op}-{since}"
    found = attributes_of(schema, since, attributes)
    rank = len(kernel)
    strides = ints(label, "strides", found["strides"], rank, 1)
    dilations = ints(label, "dilations", found["dilations"], rank, 1)
    zeros = [0] * rank
    pb = zeros if isinstance(found["pads_begin"], str) else ints(label, "pads_begin", found["pads_begin"], rank, 0)
    pe = zeros if isinstance(found["pads_end"], str) else ints(label, "pads_end", found["pads_end"], rank, 0)
    op = (zeros if isinstance(found["output_padding"], str)
          else ints(label, "output_padding", found["output_padding"], rank, 0))
    if any(k < 1 for k in kernel):
        raise SpecViolation(f"{label}: kernel extents {list(kernel)} must be positive")
    full = [s * (n - 1) + (k - 1) * d + 1 for s, n, k, d in zip(strides, x, kernel, dilations)]
    if output_shape is None:
        if found["auto_pad"] != "explicit":  # "if auto_pads != None: pads_begin[i] = 0, pads_end[i] = 0"
            pb, pe = zeros, zeros
        sizes = [f - b - e + p for f, b, e, p in zip(full, pb, pe, op)]
        if any(v < 1 for v in sizes):
            raise SpecViolation(f"{label}: the output extents {sizes} are not positive")
        return strides, dilations, pb, sizes
    shape = np.asarray(output_shape)
    if shape.dtype.kind not in "iuO":
        raise SpecViolation(f"{label}: output_shape is of an integer type (T2), got {shape.dtype}")
    if shape.ndim != 1 or shape.shape[0] != rank:
        raise SpecViolation(f"{label}: output_shape holds the {rank} spatial extents, got shape {list(shape.shape)}")
    sizes = [int(v) for v in shape.tolist()]
    if any(v < 1 for v in sizes):
        raise SpecViolation(f"{label}: output_shape {sizes} - extents must be positive")
    total = [f - o + p for f, o, p in zip(full, sizes, op)]
    if found["auto_pad"] != "same_upper":
        begins = [t // 2 for t in total]
    else:
        begins = [t - t // 2 for t in total]
    return strides, dilations, begins, sizes


def backprop(x: np.ndarray, w: np.ndarray, strides: list[int], dilations: list[int], begins: list[int],
             sizes: list[int]) -> np.ndarray:
    """x [N, G·Ci, X...], w [G, Ci, Co, k...] -> y [N, G·Co, sizes...] (``y[o] = F[o + begin]``, zero outside)."""
    groups, c_in, c_out = w.shape[:3]
    n, spatial = x.shape[0], x.shape[2:]
    kernel = w.shape[3:]
    full = [s * (m - 1) + (k - 1) * d + 1 for s, m, k, d in zip(strides, spatial, kernel, dilations)]
    # F, extended so that every output position o + begin lies inside: F's index 0 sits at ``shift``
    shift = [max(0, -b) for b in begins]
    length = [max(f, b + o) + h for f, b, o, h in zip(full, begins, sizes, shift)]
    f = np.zeros((n, groups, c_out, *length), dtype=x.dtype)
    xg = x.reshape(n, groups, c_in, *spatial)
    for offsets in np.ndindex(*kernel):
        weights = w[(slice(None), slice(None), slice(None), *offsets)]  # [G, Ci, Co]
        target = [slice(None)] * 3 + [slice(h + k * d, h + k * d + (m - 1) * s + 1, s)
                                      for h, k, d, m, s in zip(shift, offsets, dilations, spatial, strides)]
        view = f[tuple(target)]  # a strided view: the taps' positions i·s + k·d of F
        for g in range(groups):
            for c in range(c_in):
                view[:, g] += xg[:, g, c][:, None] * weights[g, c].reshape((c_out,) + (1,) * len(spatial))
    crop = tuple([slice(None)] * 3 + [slice(h + b, h + b + o) for h, b, o in zip(shift, begins, sizes)])
    return f[crop].reshape(n, groups * c_out, *sizes)


def evaluate_wide(compute: Callable[[np.ndarray, np.ndarray], np.ndarray], x: np.ndarray, w: np.ndarray
                  ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """``compute(x, w)`` exactly on integers (Python ints, overflow unspecified) or on object arrays (the exact
    pass), in wide precision on floats, rounded once."""
    dtype = x.dtype
    if dtype.kind == "O":
        return [compute(x, w)], [None]
    if dtype.kind in "iu":
        exact = compute(x.astype(object), w.astype(object))
        info = np.iinfo(dtype)
        bad = np.vectorize(lambda v: not info.min <= int(v) <= info.max, otypes=[bool])(exact) if exact.size \
            else np.zeros(exact.shape, bool)
        y = np.where(bad, 0, exact).astype(dtype)
        return [y], [bad if bad.any() else None]
    wide = work_dtype(dtype)
    with np.errstate(all="ignore"):
        y = compute(x.astype(wide), w.astype(wide))
    return [round_to(y, dtype)], [None]


def convolution_terms(axes: list[Axis], channels: int) -> int:
    """K of a forward convolution: the most taps of one window on the input, times the input channels summed."""
    return max_window_elements(axes) * channels


def backprop_terms(strides: list[int], dilations: list[int], begins: list[int], sizes: list[int],
                   spatial: tuple[int, ...], kernel: tuple[int, ...], channels: int) -> int:
    """K of a backprop: the most (input element, tap) pairs one output element sums, times the channels."""
    most = 1
    for s, d, b, o, m, k in zip(strides, dilations, begins, sizes, spatial, kernel):
        counts = [sum(1 for j in range(k) if (p + b - j * d) % s == 0 and 0 <= (p + b - j * d) // s < m)
                  for p in range(o)]
        most *= max(counts, default=0)
    return max(most * channels, 1) if most else 1
