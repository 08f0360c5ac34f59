"""Shared arithmetic of the OpenVINO region ops (ROIPooling-1, ROIAlign-3/9, PSROIPooling-1): the checks of the
feature map and the boxes, and the bilinear sample of a map at a real position.

Bilinear interpolation is the textbook one (the four pixels around the point, weights the complements of the
fractional parts). The texts define it only where the four pixels exist: a point on the map,
``0 <= y <= H - 1`` and ``0 <= x <= W - 1`` (on the last row or column the missing neighbour has weight 0). A
point off the map is left unspecified (``sample`` says so): implementations clamp, zero or skip it, and no text
says which (docs/spec-notes.md, "OpenVINO regions and detection").

Every position is computed in float64 from the inputs' exact values and the float32 attribute (an IR ``float``);
the judging covers the implementations' own roundings of it (the registry entries' magnitudes).
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

from ._errors import SpecViolation, check_unknown_attributes
from .schema import OV_FLOATS

#: "T: any supported floating-point type"
FLOATS = OV_FLOATS


def dtype_name(a: np.ndarray) -> str:
    return "bfloat16" if a.dtype == np.dtype(ml_dtypes.bfloat16) else str(a.dtype)


def one_float_type(label: str, inputs: list[np.ndarray]) -> None:
    """Every input of one T, a floating-point type (the detection texts' "all are T")."""
    t = dtype_name(inputs[0])
    if t not in FLOATS or any(dtype_name(x) != t for x in inputs):
        raise SpecViolation(f"{label}: the inputs have types {[dtype_name(x) for x in inputs]}; all are one T, a "
                            "floating-point type")


def check_map(label: str, x: np.ndarray, boxes: np.ndarray, columns: int) -> None:
    """X a 4-D map of T, the boxes [NUM_ROIS, columns] of T."""
    if dtype_name(x) not in FLOATS:
        raise SpecViolation(f"{label}: the feature map has type {dtype_name(x)}; T is a floating-point type")
    if dtype_name(boxes) != dtype_name(x):
        raise SpecViolation(f"{label}: the boxes have type {dtype_name(boxes)}, the map {dtype_name(x)}: both are T")
    check_shapes(label, x.shape, boxes.shape, columns)
    if not np.isfinite(boxes.astype(np.float64)).all():
        raise SpecViolation(f"{label}: a box holds a non-finite coordinate")


def check_shapes(label: str, x: tuple[int, ...], boxes: tuple[int, ...], columns: int) -> None:
    if len(x) != 4:
        raise SpecViolation(f"{label}: the feature map has rank {len(x)}; the text defines [N, C, H, W]")
    if len(boxes) != 2 or boxes[1] != columns:
        raise SpecViolation(f"{label}: the boxes have shape {list(boxes)}; the text defines [NUM_ROIS, {columns}]")


def check_batch(label: str, batch: np.ndarray, n: int) -> np.ndarray:
    """Batch indices: integers in [0, N - 1] (the texts' range)."""
    wide = np.asarray(batch, dtype=np.float64)
    if ((wide != np.floor(wide)) | (wide < 0) | (wide >= n)).any():
        raise SpecViolation(f"{label}: batch indices {wide.tolist()} must be integers in [0, {n - 1}]")
    return wide.astype(np.int64)


def int_attribute(label: str, attributes: dict[str, Any], name: str, default: int | None, low: int) -> int:
    value = attributes.get(name, default)
    if value is None:
        raise SpecViolation(f"{label}: {name} is required")
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or int(value) < low:
        raise SpecViolation(f"{label}: {name}={value!r} must be an integer >= {low}")
    return int(value)


def scale_attribute(label: str, attributes: dict[str, Any], name: str = "spatial_scale") -> float:
    """A positive float attribute, as the float32 an IR ``float`` holds."""
    if name not in attributes:
        raise SpecViolation(f"{label}: {name} is required")
    value = attributes[name]
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise SpecViolation(f"{label}: {name}={value!r} must be a float")
    scale = float(np.float32(value))
    if not math.isfinite(scale) or scale <= 0:
        raise SpecViolation(f"{label}: {name}={value!r} must be a positive floating-point number")
    return scale


def choice(label: str, attributes: dict[str, Any], name: str, allowed: tuple[str, ...], default: str | None) -> str:
    value = attributes.get(name, default)
    if value is None:
        raise SpecViolation(f"{label}: {name} is required")
    if value not in allowed:
        raise SpecViolation(f"{label}: {name}={value!r} is not one of {list(allowed)}")
    return str(value)


def known(label: str, attributes: dict[str, Any], names: frozenset[str] | set[str]) -> None:
    check_unknown_attributes(attributes, names, label)


def sample(plane: np.ndarray, y: float, x: float) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The bilinear sample of ``plane`` [C, H, W] (float64) at (y, x): (values [C], Σ w·|v| [C], max |v| of the
    taps [C]); None off the map (unspecified) or where a tap that carries weight is not finite."""
    height, width = plane.shape[1:]
    if not (0.0 <= y <= height - 1 and 0.0 <= x <= width - 1):
        return None
    y0, x0 = int(math.floor(y)), int(math.floor(x))
    y1, x1 = min(y0 + 1, height - 1), min(x0 + 1, width - 1)
    ly, lx = y - y0, x - x0
    taps = ((y0, x0, (1 - ly) * (1 - lx)), (y0, x1, (1 - ly) * lx), (y1, x0, ly * (1 - lx)), (y1, x1, ly * lx))
    value = np.zeros(plane.shape[0])
    weighted = np.zeros(plane.shape[0])
    largest = np.zeros(plane.shape[0])
    for r, c, w in taps:
        v = plane[:, r, c]
        if w != 0:
            if not np.isfinite(v).all():
                return None  # a NaN or infinity times a weight: the texts say nothing of it
            value += w * v
            weighted += w * np.abs(v)
        largest = np.maximum(largest, np.abs(np.nan_to_num(v, nan=0.0, posinf=0.0, neginf=0.0)))
    return value, weighted, largest


#: a coordinate is a handful of roundings of values up to the map's extent L per axis (scale, start, bin size,
#: bin and sample offsets: at most 8): its error moves a sample by 8·u·L, which moves the value by at most
#: Σ|∂w/∂y|·max|tap| = 2·max|tap| per axis, two axes: 32·u·L·max|tap| (docs/spec-notes.md)
COORDINATE_FACTOR = 32


def sample_bound(weighted: np.ndarray, largest: np.ndarray, extent: float) -> np.ndarray:
    """u-free error scale of one computed sample: 7·Σw|v| (four products of a two-rounding weight, three
    additions) plus the coordinate's share (COORDINATE_FACTOR·L·max|tap|)."""
    return 7.0 * weighted + COORDINATE_FACTOR * extent * largest
