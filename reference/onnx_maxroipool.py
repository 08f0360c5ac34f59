"""ONNX MaxRoiPool, since versions 1 and 22 (domain ai.onnx).

X [N, C, H, W] and rois [num_rois, 5] = [batch_id, x1, y1, x2, y2] (type T, as X) give
Y [num_rois, C, pooled_h, pooled_w]: the maximum of each bin of each region. Version 22 adds bfloat16; the texts
are otherwise identical. Every output is one input element (a maximum is a selection): judged exactly.

The text says nothing of how a region becomes bins of pixels. The reference follows the definition every runtime
implements, Caffe's ROIPooling (which Caffe2's RoIPool and then this op took over; docs/spec-notes.md,
"MaxRoiPool (ONNX)", has the evidence):
  * corners: ``round(coordinate * spatial_scale)``, halves away from zero (C's round);
  * the region is inclusive: height ``y2 - y1 + 1`` pixels, width ``x2 - x1 + 1``;
  * bin i of P along an axis of L pixels spans ``[floor(i * L / P), ceil((i + 1) * L / P))`` from the corner,
    clipped to the image (bins overlap when L is not a multiple of P).
Implementations compute the same formulas in different arithmetic, and the bin bounds move by one pixel where a
rounding crosses an integer (L=3, P=21: float32 ``21 * (3 / 21)`` is 3.0000002, its ceil 4). Each arithmetic a
runtime uses is a reading (``readings``, READINGS); ``evaluate`` marks unspecified the elements where they differ.

Unspecified elements (NaN, mask True): a bin with no pixel inside the image, a bin holding a NaN (runtimes answer by
the NaN's position, as for MaxPool), and every bin of a malformed region (x2 < x1 or y2 < y1: the text's box does
not exist; Caffe makes it 1 pixel, another reading would swap the corners).
SpecViolation: X not 4-D, rois not [num_rois, 5] or not X's type, a batch_id that is not an integer in [0, N),
a non-finite coordinate, pooled_shape not two values >= 1, spatial_scale not finite and > 0.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np

from ._errors import SpecViolation, check_float_input, check_unknown_attributes, int_list
from ._readings import Outputs, merge
from .schema import Attribute, Port, Schema, onnx_float_types, pooled

OP = "MaxRoiPool"
SCHEMA = Schema(
    "ai.onnx", OP, (1, 22),
    attributes=(
        Attribute("pooled_shape", "ints", required=True),
        Attribute("spatial_scale", "float", default=1.0),
    ),
    inputs=(Port("X"), Port("rois")),
    outputs=(Port("Y"),),
    axes=pooled(2),  # X is N x C x H x W
    types=onnx_float_types(),
)
VERSIONS = SCHEMA.versions
#: reading -> (arithmetic of coordinate * spatial_scale, arithmetic of the bin bounds). "exact" is rational
#: arithmetic; float32 is onnxruntime's (and Caffe's / torchvision's for float tensors), float32 corners with exact
#: integer bins OpenVINO's, float64 bins torchvision's and Caffe's for double tensors.
READINGS: dict[str, tuple[str, str]] = {
    "exact": ("exact", "exact"),
    "float32": ("float32", "float32"),
    "float32_corners": ("float32", "exact"),
    "float64_bins": ("exact", "float64"),
}


def _attributes(since: int, attributes: dict[str, Any]) -> tuple[int, int, np.float32]:
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), f"{OP}-{since}")
    if "pooled_shape" not in attributes:
        raise SpecViolation(f"{OP}-{since}: pooled_shape is required")
    pooled_h, pooled_w = int_list(attributes["pooled_shape"], "pooled_shape", 2, 1)
    scale = attributes.get("spatial_scale", 1.0)
    if isinstance(scale, bool) or not isinstance(scale, int | float | np.floating | np.integer):
        raise SpecViolation(f"{OP}-{since}: spatial_scale must be a float, got {scale!r}")
    # an ONNX FLOAT attribute is 32-bit: the runtimes see this value
    scale32 = np.float32(scale)
    if not np.isfinite(scale32) or scale32 <= 0:
        raise SpecViolation(f"{OP}-{since}: spatial_scale={scale!r} must be finite and > 0 (a scale factor)")
    return pooled_h, pooled_w, scale32


def _check_shapes(since: int, x_shape: tuple[int, ...], rois_shape: tuple[int, ...]) -> None:
    if len(x_shape) != 4:
        raise SpecViolation(f"{OP}-{since}: X has rank {len(x_shape)}; the op is defined for N x C x H x W")
    if len(rois_shape) != 2 or rois_shape[1] != 5:
        raise SpecViolation(f"{OP}-{since}: rois has shape {rois_shape}; it must be (num_rois, 5)")


def _dtype_name(a: np.ndarray) -> str:
    return "bfloat16" if a.dtype == np.dtype(ml_dtypes.bfloat16) else str(a.dtype)


def _check_inputs(since: int, inputs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    if len(inputs) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs (X, rois), got {len(inputs)}")
    x, rois = inputs
    check_float_input(x)
    check_float_input(rois, "input 1 (rois)")
    if _dtype_name(x) not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"{OP}-{since}: dtype {_dtype_name(x)} is not in the type constraint")
    if rois.dtype != x.dtype:
        raise SpecViolation(f"{OP}-{since}: rois has dtype {_dtype_name(rois)}, X {_dtype_name(x)}: both are T")
    _check_shapes(since, x.shape, rois.shape)
    wide = rois.astype(np.float64)
    if not np.isfinite(wide).all():
        raise SpecViolation(f"{OP}-{since}: rois hold a non-finite value")
    batch = wide[:, 0]
    if ((batch != np.floor(batch)) | (batch < 0) | (batch >= x.shape[0])).any():
        raise SpecViolation(f"{OP}-{since}: batch_id {batch.tolist()} must be integers in [0, {x.shape[0]})")
    return x, rois


def _round_half_away(q: Fraction) -> int:
    return math.floor(q + Fraction(1, 2)) if q >= 0 else -math.floor(-q + Fraction(1, 2))


def _corner(value: Any, scale: np.float32, arithmetic: str) -> int:
    if arithmetic == "float32":  # coordinate and scale multiplied in float32 (C: float * float)
        return _round_half_away(Fraction(float(np.float32(value) * scale)))
    return _round_half_away(Fraction(float(value)) * Fraction(float(scale)))


def _bin_bounds(length: int, pooled: int, arithmetic: str) -> list[tuple[int, int]]:
    """Per bin [start, end) from the region's first pixel (before clipping)."""
    if arithmetic == "exact":
        return [((i * length) // pooled, -((-(i + 1) * length) // pooled)) for i in range(pooled)]
    real = np.float32 if arithmetic == "float32" else np.float64
    size = real(length) / real(pooled)  # the bin size, rounded once, then multiplied: Caffe's order
    return [(math.floor(real(i) * size), math.ceil(real(i + 1) * size)) for i in range(pooled)]


def _pool(x: np.ndarray, rois: np.ndarray, pooled: tuple[int, int], scale: np.float32,
          arithmetic: tuple[str, str]) -> Outputs:
    n_rois, channels = rois.shape[0], x.shape[1]
    height, width = x.shape[2:]
    wide = x.astype(np.float64)  # exact for every float type of the constraint; values are copied back
    y = np.zeros((n_rois, channels, *pooled), dtype=np.float64)
    mask = np.zeros(y.shape, dtype=bool)
    for r in range(n_rois):
        batch, x1, y1, x2, y2 = rois[r]
        if float(x2) < float(x1) or float(y2) < float(y1):
            mask[r] = True  # malformed region
            continue
        w0, h0, w1, h1 = (_corner(v, scale, arithmetic[0]) for v in (x1, y1, x2, y2))
        rows = _bin_bounds(max(h1 - h0 + 1, 1), pooled[0], arithmetic[1])
        cols = _bin_bounds(max(w1 - w0 + 1, 1), pooled[1], arithmetic[1])
        plane = wide[int(batch)]
        for i, (top, bottom) in enumerate(rows):
            top, bottom = min(max(top + h0, 0), height), min(max(bottom + h0, 0), height)
            for j, (left, right) in enumerate(cols):
                left, right = min(max(left + w0, 0), width), min(max(right + w0, 0), width)
                if bottom <= top or right <= left:
                    mask[r, :, i, j] = True  # no pixel of the image in this bin: no maximum
                    continue
                window = plane[:, top:bottom, left:right].reshape(channels, -1)
                nan = np.isnan(window).any(axis=1)
                y[r, :, i, j] = np.where(nan, np.nan, np.max(np.where(np.isnan(window), -np.inf, window), axis=1))
                mask[r, :, i, j] |= nan
    y[mask] = np.nan
    return [y.astype(x.dtype)], [mask if mask.any() else None]


def readings(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Outputs]:
    """Every reading (READINGS) by name, each ``([Y], [unspecified mask or None])``."""
    pooled_h, pooled_w, scale = _attributes(since, attributes)
    x, rois = _check_inputs(since, inputs)
    return {name: _pool(x, rois, (pooled_h, pooled_w), scale, arithmetic) for name, arithmetic in READINGS.items()}


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """[Y] and its unspecified mask (no pixel, a NaN, a malformed region, or readings that disagree)."""
    return merge(readings(since, inputs, attributes))


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    """[(num_rois, C, pooled_h, pooled_w)]."""
    if len(input_shapes) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs (X, rois), got {len(input_shapes)}")
    pooled_h, pooled_w, _ = _attributes(since, attributes)
    x_shape, rois_shape = tuple(input_shapes[0]), tuple(input_shapes[1])
    _check_shapes(since, x_shape, rois_shape)
    return [(rois_shape[0], x_shape[1], pooled_h, pooled_w)]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    """1: each output is one input element (a maximum selects, it does not compute): judged exactly."""
    output_shapes(since, input_shapes, attributes, input_values)
    return 1
