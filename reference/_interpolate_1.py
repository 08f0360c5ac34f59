"""OpenVINO Interpolate-1 (image/interpolate-1.rst): what its page lets one say of the values without a formula.

The page names four modes (nearest, linear, cubic, area), ``align_corners`` and ``antialias``, and gives the
output's shape (the data's, with ``target_spatial_shape`` on ``axes``), but no coordinate rule and no formula for
any mode. Two values follow from "interpolation" whatever the rule (docs/spec-notes.md, "OpenVINO Interpolate-1"):
  * the same spatial shape, nothing padded: every output element is its input element (an interpolation of a
    grid onto itself reads each sample where it stands: weights 1 on it and 0 elsewhere, in every mode);
  * a slice constant along ``axes`` (nothing padded): every output element of it is that constant (every mode's
    weights sum to 1: nearest picks a sample, linear and cubic blend with weights summing to 1, area averages).
Everything else is unspecified; so is an element whose slice holds a value that is not finite (0 times infinity
in a zero weight). ``pads_begin``/``pads_end`` add pixels whose values the page does not give: with any padding,
every element is unspecified. The shape is always checked.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._normalization import type_name
from ._pnorm import round_to

MODES = ("nearest", "linear", "cubic", "area")
LABEL = "Interpolate-1"


def geometry(input_shapes: list[tuple[int, ...]], found: dict[str, Any], given: dict[int, Any]
             ) -> tuple[list[int], tuple[int, ...], bool]:
    """(axes, output shape, padded) from the data's shape, the attributes and target_spatial_shape's values."""
    if len(input_shapes) != 2:
        raise SpecViolation(f"{LABEL} takes data and target_spatial_shape, got {len(input_shapes)} inputs")
    shape, rank = tuple(input_shapes[0]), len(input_shapes[0])
    axes = [int(a) for a in found["axes"]]
    if not axes or len(set(axes)) != len(axes) or any(not 0 <= a < rank for a in axes):
        raise SpecViolation(f"{LABEL}: axes {axes} are not distinct indices in [0, {rank - 1}]")
    pads = [[int(v) for v in found[name]] for name in ("pads_begin", "pads_end")]
    if any(v < 0 for pad in pads for v in pad):
        raise SpecViolation(f"{LABEL}: pads {pads} hold a negative number")
    if 1 not in given:
        raise LookupError(f"{LABEL}: target_spatial_shape's values are needed for the output shape")
    target = np.asarray(given[1])
    if target.ndim != 1 or target.dtype.kind not in "iu":
        raise SpecViolation(f"{LABEL}: target_spatial_shape is a 1-D tensor of integers, got {type_name(target)} of "
                            f"rank {target.ndim}")
    if target.size != len(axes) or (target < 0).any():
        raise SpecViolation(f"{LABEL}: target_spatial_shape {target.tolist()} gives one non-negative extent per "
                            f"axis of {axes}")
    out = list(shape)
    for axis, extent in zip(axes, target.tolist(), strict=True):
        out[axis] = int(extent)
    return axes, tuple(out), any(v for pad in pads for v in pad)


def window_elements(input_shapes: list[tuple[int, ...]], found: dict[str, Any], given: dict[int, Any]) -> int:
    """K: the terms one output element may sum per axis, in each mode's usual kernel (nearest 1, linear 2, cubic 4,
    area and antialiasing the input pixels an output pixel covers, plus one), multiplied over the axes."""
    shape = tuple(input_shapes[0])
    axes = [int(a) for a in found["axes"]]
    target = np.asarray(given.get(1, [shape[a] for a in axes if 0 <= a < len(shape)])).reshape(-1).tolist()
    k = 1
    for axis, extent in zip(axes, target):
        covered = -(-shape[axis] // max(int(extent), 1)) if 0 <= axis < len(shape) else 1
        per = {"nearest": 1, "linear": 2, "cubic": 4}.get(found["mode"], 1)
        if found["mode"] == "area" or found["antialias"]:
            per = max(per, 1) * covered + 1
        k *= per
    return max(k, 1)


def evaluate(inputs: list[np.ndarray], found: dict[str, Any], allowed: tuple[str, ...]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x = inputs[0]
    if not isinstance(x, np.ndarray) or type_name(x) not in allowed:
        raise SpecViolation(f"{LABEL}: the data type is not in the type constraint (any floating-point type)")
    axes, out, padded = geometry([np.shape(v) for v in inputs], found, dict(enumerate(inputs)))
    y, known = np.full(out, np.nan), np.zeros(out, bool)
    wide = x.astype(np.float64)
    if not padded and wide.size and all(n > 0 for n in out):
        finite = np.isfinite(wide).all(axis=tuple(axes), keepdims=True)
        if out == x.shape:
            y, known = wide.copy(), np.broadcast_to(finite, out).copy()
        else:
            low, high = wide.min(axis=tuple(axes), keepdims=True), wide.max(axis=tuple(axes), keepdims=True)
            constant = finite & (low == high)
            y = np.broadcast_to(np.where(constant, low, np.nan), out).copy()
            known = np.broadcast_to(constant, out).copy()
    elif not padded:
        known[...] = True  # an empty output: nothing to leave unspecified
    result = round_to(np.where(known, y, 0.0), x.dtype)
    result[~known] = np.nan
    return [result], [~known if (~known).any() else None]
