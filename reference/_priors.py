"""Shared arithmetic of OpenVINO's prior-box generators (PriorBox-1/8, PriorBoxClustered-1): the attribute
readers, the grid inputs and the output's layout.

Layout (the texts give only the shape ``[2, 4 * height * width * priors_per_point]``): row 0 holds, for each grid
cell (h, w) row-major, each of its priors in turn, the four coordinates [xmin, ymin, xmax, ymax]; row 1 holds the
variance of each coordinate (the *variance* attribute: one value for all four, or one per coordinate). Both are
chosen (SSD's layout, the factors' order in the text's shape); docs/spec-notes.md, "OpenVINO prior boxes and YOLO".
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ._errors import SpecViolation

#: a case's magnitude of the terms of one coordinate: K for the averaging bound, (K + 2) roundings of the terms
#: (centre: offset add, step or image/grid ratio multiply, 3; half size: sqrt and product, 2; the subtraction, 1)
K = 4


def floats(label: str, attributes: dict[str, Any], name: str, default: tuple[float, ...] = ()) -> list[float]:
    """A ``float[]`` attribute as the float32 values an IR holds ('' or [] empty, a scalar one value)."""
    value = attributes.get(name, default)
    if isinstance(value, str):
        value = [v for v in value.replace(" ", "").split(",") if v]
    if isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool):
        value = [value]
    try:
        found = [float(np.float32(float(v))) for v in value]
    except (TypeError, ValueError) as e:
        raise SpecViolation(f"{label}: {name}={value!r} is not a list of floats") from e
    if not all(np.isfinite(found)):
        raise SpecViolation(f"{label}: {name}={value!r} holds a non-finite value")
    return found


def number(label: str, attributes: dict[str, Any], name: str, default: float | None) -> float:
    value = attributes.get(name, default)
    if value is None:
        raise SpecViolation(f"{label}: {name} is required")
    if isinstance(value, list | tuple) and len(value) == 1:
        value = value[0]
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating | str):
        raise SpecViolation(f"{label}: {name}={value!r} must be a float")
    found = float(np.float32(float(value)))
    if not np.isfinite(found) or found < 0:
        raise SpecViolation(f"{label}: {name}={value!r} must be a non-negative float")
    return found


def flag(label: str, attributes: dict[str, Any], name: str, default: bool) -> bool:
    value = attributes.get(name, default)
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    if isinstance(value, bool | np.bool_) or value in (0, 1):
        return bool(value)
    raise SpecViolation(f"{label}: {name}={value!r} must be a boolean")


def variances(label: str, attributes: dict[str, Any]) -> list[float]:
    found = floats(label, attributes, "variance")
    if len(found) not in (0, 1, 4):
        raise SpecViolation(f"{label}: variance has {len(found)} elements; the text allows 0, 1 or 4")
    if any(v <= 0 for v in found):
        raise SpecViolation(f"{label}: variance {found} must be positive")
    return found


def grid(label: str, shapes: list[tuple[int, ...]], values: dict[int, np.ndarray] | None, least: int = 2
         ) -> tuple[int, int, int, int]:
    """(height, width, image_height, image_width) from the 1-D inputs of two integer elements; an image size left
    out (PriorBoxClustered's is optional, with no default) is -1."""
    if not least <= len(shapes) <= 2:
        raise SpecViolation(f"{label} takes {least} to 2 inputs, got {len(shapes)}")
    for port, shape in enumerate(shapes):
        if tuple(shape) != (2,):
            raise SpecViolation(f"{label}: input {port} has shape {list(shape)}; the text defines two elements")
    if values is None or any(p not in values for p in range(len(shapes))):
        raise SpecViolation(f"{label}: the output shape depends on the values of output_size")
    out: list[int] = []
    for port in range(len(shapes)):
        v = np.asarray(values[port])
        if v.dtype.kind not in "iu":
            raise SpecViolation(f"{label}: input {port} has type {v.dtype}; T_INT is an integer type")
        if (v < 0).any():
            raise SpecViolation(f"{label}: input {port} = {v.tolist()} must be non-negative sizes")
        out += [int(v[0]), int(v[1])]
    if len(out) == 2:
        out += [-1, -1]
    return out[0], out[1], out[2], out[3]


def check_output_type(label: str, dtype: np.dtype) -> None:
    name = "bfloat16" if dtype == np.dtype(ml_dtypes.bfloat16) else str(dtype)
    if name not in ("float16", "bfloat16", "float32", "float64"):
        raise SpecViolation(f"{label}: T_OUT is a floating-point type, got {name}")


def variance_row(count: int, found: list[float], clip: bool) -> tuple[np.ndarray, np.ndarray]:
    """Row 1 and its unspecified mask: no variance given (the text names no default) is unspecified, and so is a
    variance > 1 with clip (whether clip reaches row 1 - 'each value in the output tensor' - is two readings)."""
    row = np.zeros(4 * count)
    mask = np.zeros(4 * count, bool)
    if not found:
        row[:] = np.nan
        mask[:] = True
        return row, mask
    per = np.array(found * 4 if len(found) == 1 else found)
    row[:] = np.tile(per, count)
    if clip:
        mask[:] = np.tile(per > 1, count)
    return row, mask


def assemble(boxes: np.ndarray, magnitudes: np.ndarray, unspecified: np.ndarray, found: list[float], clip: bool,
             dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """boxes [H, W, P, 4] (float64, before clip) -> (output [2, 4·H·W·P], mask, magnitude)."""
    flat = boxes.reshape(-1)
    if clip:
        flat = np.clip(flat, 0.0, 1.0)
    row, row_mask = variance_row(flat.size // 4, found, clip)
    out = np.stack([flat, row]).astype(dtype)
    mask = np.stack([unspecified.reshape(-1), row_mask])
    magnitude = np.stack([magnitudes.reshape(-1), np.abs(row)])
    return out, mask, magnitude
