"""A deliberately naive oracle for ONNX MaxRoiPool: for every region, output element and channel, every pixel of
the image is tested for membership in the bin; written from the spec text plus the rounding rules recorded in
docs/spec-notes.md, "MaxRoiPool (ONNX)" (Caffe's ROIPooling, in each arithmetic a runtime uses). It shares no code
with `reference`.

``maxroipool`` returns {reading: (Y, unspecified mask)} or raises Invalid.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import numpy as np


class Invalid(Exception):
    pass


# reading -> (corner arithmetic, bin arithmetic), as spec-notes lists them
READINGS = {
    "exact": ("exact", "exact"),
    "float32": ("float32", "float32"),
    "float32_corners": ("float32", "exact"),
    "float64_bins": ("exact", "float64"),
}


def _round(value: Decimal) -> int:
    # Decimal's ROUND_HALF_UP rounds halves away from zero, as C's round()
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def corner(coordinate, scale: float, arithmetic: str) -> int:
    if arithmetic == "float32":
        return _round(Decimal(float(np.float32(np.float32(coordinate) * np.float32(scale)))))
    return _round(Decimal(float(coordinate)) * Decimal(float(np.float32(scale))))  # Decimal products are exact here


def in_bin(pixel: int, first: int, length: int, i: int, pooled: int, arithmetic: str) -> bool:
    """Is ``pixel`` in bin i: floor(i * L / P) <= pixel - first < ceil((i + 1) * L / P)."""
    rel = pixel - first
    if arithmetic == "exact":
        # integer rel: rel >= floor(q) <=> rel + 1 > q, and rel < ceil(q) <=> rel < q
        return (rel + 1) * pooled > i * length and rel * pooled < (i + 1) * length
    real = np.float32 if arithmetic == "float32" else np.float64
    size = real(length) / real(pooled)
    return math.floor(real(i) * size) <= rel < math.ceil(real(i + 1) * size)


def maxroipool(x: np.ndarray, rois: np.ndarray, attrs: dict) -> dict:
    if x.ndim != 4 or rois.ndim != 2 or rois.shape[1] != 5:
        raise Invalid("shapes")
    ph, pw = attrs["pooled_shape"]
    if ph < 1 or pw < 1:
        raise Invalid("pooled_shape")
    scale = attrs.get("spatial_scale", 1.0)
    if not (math.isfinite(scale) and scale > 0):
        raise Invalid("spatial_scale")
    n, c, height, width = x.shape
    for roi in rois:
        b = float(roi[0])
        if not all(math.isfinite(float(v)) for v in roi) or b != int(b) or not 0 <= b < n:
            raise Invalid("roi")
    found = {}
    for name, (corner_arith, bin_arith) in READINGS.items():
        y = np.zeros((len(rois), c, ph, pw))
        mask = np.zeros(y.shape, dtype=bool)
        for r, roi in enumerate(rois):
            if float(roi[3]) < float(roi[1]) or float(roi[4]) < float(roi[2]):
                mask[r] = True
                y[r] = np.nan
                continue
            x1, y1, x2, y2 = (corner(v, scale, corner_arith) for v in roi[1:])
            rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
            for i in range(ph):
                for j in range(pw):
                    pixels = [(h, w) for h in range(height) for w in range(width)
                              if in_bin(h, y1, rh, i, ph, bin_arith) and in_bin(w, x1, rw, j, pw, bin_arith)]
                    for ch in range(c):
                        values = [float(x[int(roi[0]), ch, h, w]) for h, w in pixels]
                        if not values or any(math.isnan(v) for v in values):
                            mask[r, ch, i, j] = True
                            y[r, ch, i, j] = np.nan
                        else:
                            y[r, ch, i, j] = max(values)
        found[name] = (y.astype(x.dtype), mask)
    return found
