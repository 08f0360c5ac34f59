"""OpenVINO ROIAlign-3 and ROIAlign-9 (detection/roi-align-3.rst, roi-align-9.rst).

Data [N, C, H, W], boxes [NUM_ROIS, 4] = [x_1, y_1, x_2, y_2] of T, batch indices [NUM_ROIS] of IND_T give
[NUM_ROIS, C, pooled_h, pooled_w]. Per the texts (and Mask R-CNN, which both cite):
  * the box's start: ``x_1 * spatial_scale`` (-3; -9 ``asymmetric``), ``x_1 * spatial_scale - 0.5``
    (``half_pixel_for_nn``), ``(x_1 + 0.5) * spatial_scale - 0.5`` (``half_pixel``); its width
    ``max(spatial_scale * (x_2 - x_1), 1.0)`` (-3, asymmetric), ``spatial_scale * (x_2 - x_1)`` otherwise (-9);
  * the box divided into pooled_h x pooled_w equal bins, each into sampling_ratio x sampling_ratio equal cells
    (0: ``ceil(roi_height / pooled_h)`` x ``ceil(roi_width / pooled_w)``), one bilinear sample at each cell's
    centre (Mask R-CNN's "regularly sampled locations"; the text's "4 points" are bilinear's four neighbours);
  * ``mode`` avg: the mean of the samples; max: their maximum.
Unspecified: an element with a sample off the map (no text defines bilinear interpolation there), with no
sample at all (adaptive count 0), of a box of negative extent (-9's non-asymmetric modes: no box), or whose
taps hold a NaN or infinity.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _regions as rg
from ._errors import SpecViolation
from .schema import OV_INTEGERS, Attribute, Port, Schema, pooled

OP = "ROIAlign"
MODES = ("avg", "max")
ALIGNED_MODES = ("asymmetric", "half_pixel_for_nn", "half_pixel")
SCHEMA = Schema(
    "openvino", OP, (3, 9),
    attributes=(
        Attribute("pooled_h", "int", required=True),
        Attribute("pooled_w", "int", required=True),
        Attribute("sampling_ratio", "int", required=True),
        Attribute("spatial_scale", "float", required=True),
        Attribute("mode", "enum", values=MODES, required=True),
        Attribute("aligned_mode", "enum", default="asymmetric", values=ALIGNED_MODES, since=9),
    ),
    inputs=(Port("data"), Port("rois"), Port("batch_indices", dtype="int64", dtypes=OV_INTEGERS)),
    outputs=(Port("output", rank_of=None),),
    axes=pooled(2),
    types=((0, rg.FLOATS),),
)
VERSIONS = SCHEMA.versions


def _attributes(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"{OP}-{since}"
    rg.known(label, attributes, SCHEMA.attribute_names(since))
    return {"pooled_h": rg.int_attribute(label, attributes, "pooled_h", None, 1),
            "pooled_w": rg.int_attribute(label, attributes, "pooled_w", None, 1),
            "sampling_ratio": rg.int_attribute(label, attributes, "sampling_ratio", None, 0),
            "spatial_scale": rg.scale_attribute(label, attributes),
            "mode": rg.choice(label, attributes, "mode", MODES, None),
            "aligned_mode": rg.choice(label, attributes, "aligned_mode", ALIGNED_MODES, "asymmetric")}


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"{OP}-{since}"
    if len(input_shapes) != 3:
        raise SpecViolation(f"{label} takes three inputs (data, rois, batch_indices), got {len(input_shapes)}")
    a = _attributes(since, attributes)
    x, rois, batch = (tuple(s) for s in input_shapes)
    rg.check_shapes(label, x, rois, 4)
    if batch != (rois[0],):
        raise SpecViolation(f"{label}: batch_indices has shape {list(batch)}; the text defines [NUM_ROIS] "
                            f"= [{rois[0]}]")
    return [(rois[0], x[1], a["pooled_h"], a["pooled_w"])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K = 7, one sample's arithmetic (four products, three additions); the sample count and the coordinates'
    roundings are in ``magnitude`` (an adaptive count depends on the boxes' values, which K cannot see)."""
    return 7


def box_axis(start: float, end: float, scale: float, aligned: str, since: int) -> tuple[float, float]:
    """(start, extent) of one axis of a box on the map."""
    if aligned == "half_pixel_for_nn":
        return start * scale - 0.5, scale * (end - start)
    if aligned == "half_pixel":
        return (start + 0.5) * scale - 0.5, scale * (end - start)
    return start * scale, max(scale * (end - start), 1.0)


def grid(extent: float, pooled_n: int, ratio: int) -> int:
    return ratio if ratio > 0 else math.ceil(extent / pooled_n)


def _pool(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(output, unspecified, magnitude) in float64."""
    label = f"{OP}-{since}"
    if len(inputs) != 3:
        raise SpecViolation(f"{label} takes three inputs (data, rois, batch_indices), got {len(inputs)}")
    a = _attributes(since, attributes)
    x, rois, batch = inputs
    rg.check_map(label, x, rois, 4)
    output_shapes(since, [x.shape, rois.shape, batch.shape], attributes)
    if batch.dtype.kind not in "iu":
        raise SpecViolation(f"{label}: batch_indices has type {batch.dtype}; IND_T is an integer type")
    batch = rg.check_batch(label, batch, x.shape[0])
    ph_n, pw_n, ratio = a["pooled_h"], a["pooled_w"], a["sampling_ratio"]
    wide, boxes = x.astype(np.float64), rois.astype(np.float64)
    shape = (rois.shape[0], x.shape[1], ph_n, pw_n)
    y, mask, mag = np.zeros(shape), np.zeros(shape, bool), np.zeros(shape)
    height, width = x.shape[2:]
    for r in range(rois.shape[0]):
        x1, y1, x2, y2 = boxes[r]
        sx, ew = box_axis(x1, x2, a["spatial_scale"], a["aligned_mode"], since)
        sy, eh = box_axis(y1, y2, a["spatial_scale"], a["aligned_mode"], since)
        gh, gw = grid(eh, ph_n, ratio), grid(ew, pw_n, ratio)
        if ew < 0 or eh < 0 or gh <= 0 or gw <= 0:
            mask[r] = True
            continue
        extent = max(height, width, abs(sx), abs(sy), abs(sx + ew), abs(sy + eh))
        plane = wide[batch[r]]
        bh, bw = eh / ph_n, ew / pw_n
        for i in range(ph_n):
            for j in range(pw_n):
                got = [rg.sample(plane, sy + i * bh + (iy + 0.5) * bh / gh, sx + j * bw + (ix + 0.5) * bw / gw)
                       for iy in range(gh) for ix in range(gw)]
                if any(g is None for g in got):
                    mask[r, :, i, j] = True
                    continue
                values = np.stack([g[0] for g in got])
                bounds = np.stack([rg.sample_bound(g[1], g[2], extent) for g in got])
                if a["mode"] == "avg":
                    y[r, :, i, j] = values.mean(axis=0)
                    # the sum of S samples adds S + 2 roundings of Σ|samples| (the averaging bound), each sample
                    # its own 7 + coordinate: all expressed at the (K + 2) = 9 of window_elements
                    mag[r, :, i, j] = ((len(got) + 2) * np.stack([g[1] for g in got]).mean(axis=0)
                                       + bounds.mean(axis=0)) / 9.0
                else:
                    y[r, :, i, j] = values.max(axis=0)
                    mag[r, :, i, j] = bounds.max(axis=0) / 9.0
    return y, mask, mag


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    y, mask, _ = _pool(since, inputs, attributes)
    out = y.astype(inputs[0].dtype)
    out[mask] = np.nan
    return [out], [mask if mask.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """The averaging bound's scale: per element, the samples' Σw|x| and their coordinates' share
    (reference/_regions.py ``sample_bound``), scaled so that (K + 2)·u·magnitude is their sum."""
    return [_pool(since, inputs, attributes)[2]]
