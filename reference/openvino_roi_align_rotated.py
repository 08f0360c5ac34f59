"""OpenVINO ROIAlignRotated-14 and -15 (detection/roi-align-rotated-14.rst, -15.rst: the same text).

Data [N, C, H, W], boxes [NUM_ROIS, 5] = [center_x, center_y, width, height, angle] of T, batch indices of IND_T
give [NUM_ROIS, C, pooled_h, pooled_w]. Per the text: centre, width and height times ``spatial_scale`` (its
WARNING: the centre too), the centre shifted by -0.5 (in map units: the shift aligns the box with the map's
integer pixel coordinates), the box divided into pooled_h x pooled_w equal bins, ``bin_points`` regularly spaced
samples per bin (``sampling_ratio``, or ``ceil(roi / pooled)`` when 0), each rotated about the centre by the
angle (radians) and interpolated from the four closest integer points, the bin the average of its samples.

Which way "counterclockwise" turns on a map whose rows grow downwards the text does not say: reading ``display``
turns as the image is seen (a point right of the centre moves up: x' = x cos + y sin, y' = -x sin + y cos about the
centre, Detectron2's RoIAlignRotated), reading ``axes`` as in the (x, y) axes of the array (right moves down:
x' = x cos - y sin, y' = x sin + y cos). ``clockwise_mode`` negates the angle in both. Elements where they differ
are unspecified (an angle of 0 turns the same either way; float32's pi/2 or pi is no exact half or quarter turn,
so there they differ in the last bits), as an element with a sample off the map, of a box of negative extent or
with no sample.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _regions as rg
from ._errors import SpecViolation
from ._readings import Outputs, merge
from .openvino_roi_align import grid
from .schema import OV_INTEGERS, Attribute, Port, Schema, pooled

OP = "ROIAlignRotated"
SCHEMA = Schema(
    "openvino", OP, (14, 15),
    attributes=(
        Attribute("pooled_h", "int", required=True),
        Attribute("pooled_w", "int", required=True),
        Attribute("sampling_ratio", "int", required=True),
        Attribute("spatial_scale", "float", required=True),
        Attribute("clockwise_mode", "bool", default=False),
    ),
    inputs=(Port("data"), Port("rois"), Port("batch_indices", dtype="int64", dtypes=OV_INTEGERS)),
    outputs=(Port("output", rank_of=None),),
    axes=pooled(2),
    types=((0, rg.FLOATS),),
)
VERSIONS = SCHEMA.versions
READINGS = ("display", "axes")


def _attributes(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"{OP}-{since}"
    rg.known(label, attributes, SCHEMA.attribute_names(since))
    clockwise = attributes.get("clockwise_mode", False)
    if isinstance(clockwise, str) and clockwise.lower() in ("true", "false"):
        clockwise = clockwise.lower() == "true"
    if not isinstance(clockwise, bool | np.bool_):
        raise SpecViolation(f"{label}: clockwise_mode={clockwise!r} must be a boolean")
    return {"pooled_h": rg.int_attribute(label, attributes, "pooled_h", None, 1),
            "pooled_w": rg.int_attribute(label, attributes, "pooled_w", None, 1),
            "sampling_ratio": rg.int_attribute(label, attributes, "sampling_ratio", None, 0),
            "spatial_scale": rg.scale_attribute(label, attributes), "clockwise_mode": bool(clockwise)}


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"{OP}-{since}"
    if len(input_shapes) != 3:
        raise SpecViolation(f"{label} takes three inputs (data, rois, batch_indices), got {len(input_shapes)}")
    a = _attributes(since, attributes)
    x, rois, batch = (tuple(s) for s in input_shapes)
    rg.check_shapes(label, x, rois, 5)
    if batch != (rois[0],):
        raise SpecViolation(f"{label}: batch_indices has shape {list(batch)}; the text defines [NUM_ROIS]")
    return [(rois[0], x[1], a["pooled_h"], a["pooled_w"])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K = 7 per sample, as ROIAlign's; the samples' count and the coordinates in ``magnitude``."""
    return 7


def _pool(since: int, inputs: list[np.ndarray], attributes: dict[str, Any], reading: str
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    label = f"{OP}-{since}"
    if len(inputs) != 3:
        raise SpecViolation(f"{label} takes three inputs (data, rois, batch_indices), got {len(inputs)}")
    a = _attributes(since, attributes)
    x, rois, batch = inputs
    rg.check_map(label, x, rois, 5)
    output_shapes(since, [x.shape, rois.shape, batch.shape], attributes)
    if batch.dtype.kind not in "iu":
        raise SpecViolation(f"{label}: batch_indices has type {batch.dtype}; IND_T is an integer type")
    batch = rg.check_batch(label, batch, x.shape[0])
    ph_n, pw_n, scale = a["pooled_h"], a["pooled_w"], a["spatial_scale"]
    shape = (rois.shape[0], x.shape[1], ph_n, pw_n)
    y, mask, mag = np.zeros(shape), np.zeros(shape, bool), np.zeros(shape)
    wide, boxes = x.astype(np.float64), rois.astype(np.float64)
    for r in range(rois.shape[0]):
        cx, cy, width, height, angle = boxes[r]
        cx, cy, width, height = cx * scale - 0.5, cy * scale - 0.5, width * scale, height * scale
        theta = -angle if a["clockwise_mode"] else angle
        gh, gw = grid(height, ph_n, a["sampling_ratio"]), grid(width, pw_n, a["sampling_ratio"])
        if width < 0 or height < 0 or gh <= 0 or gw <= 0:
            mask[r] = True
            continue
        cos, sin = math.cos(theta), math.sin(theta)
        if reading == "display":  # y grows downwards: a counterclockwise turn as seen moves right to up
            sin = -sin
        extent = max(x.shape[2], x.shape[3], abs(cx) + width + height, abs(cy) + width + height)
        bh, bw = height / ph_n, width / pw_n
        for i in range(ph_n):
            for j in range(pw_n):
                got = []
                for iy in range(gh):
                    for ix in range(gw):
                        ly = -height / 2 + i * bh + (iy + 0.5) * bh / gh
                        lx = -width / 2 + j * bw + (ix + 0.5) * bw / gw
                        got.append(rg.sample(wide[batch[r]], cy + lx * sin + ly * cos, cx + lx * cos - ly * sin))
                if any(g is None for g in got):
                    mask[r, :, i, j] = True
                    continue
                y[r, :, i, j] = np.stack([g[0] for g in got]).mean(axis=0)
                bounds = np.stack([rg.sample_bound(g[1], g[2], extent) for g in got]).mean(axis=0)
                # the rotation adds two products and a sum per coordinate: within the coordinate share's slack
                mag[r, :, i, j] = ((len(got) + 2) * np.stack([g[1] for g in got]).mean(axis=0) + bounds) / 9.0
    return y, mask, mag


def readings(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Outputs]:
    found = {}
    for reading in READINGS:
        y, mask, _ = _pool(since, inputs, attributes, reading)
        out = y.astype(inputs[0].dtype)
        out[mask] = np.nan
        found[reading] = ([out], [mask])
    return found


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    return merge(readings(since, inputs, attributes))


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [np.maximum(*(_pool(since, inputs, attributes, r)[2] for r in READINGS))]
