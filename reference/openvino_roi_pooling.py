"""OpenVINO ROIPooling-1 (detection/roi-pooling-1.rst).

Data [N, C, H, W] and boxes [NUM_ROIS, 5] = [batch_id, x_1, y_1, x_2, y_2] of T give [NUM_ROIS, C, pooled_h,
pooled_w]. The text fixes the box's extent and leaves the rest open; each open point is a reading (``readings``),
and ``evaluate`` leaves unspecified the elements where they differ (reference/_readings.py):
  * ``max``: the box ``x_1 * spatial_scale`` wide ``max(spatial_scale * (x_2 - x_1), 1.0)`` (the text), in equal
    bins; a bin's pixels are those it touches (``floor`` of its start to ``ceil`` of its end), the maximum of them.
    "Produce box coordinates relative to the input feature map size" may or may not round the corners to pixels:
    reading ``continuous`` keeps them real, ``rounded`` rounds them (halves away from zero) and takes the text's
    extent of the rounded corners. A bin with no pixel on the map, or holding a NaN, is unspecified.
  * ``bilinear``: corners normalised to [0, 1], the box ``x_1 * (W - 1)`` wide ``(W - 1) * (x_2 - x_1)`` (the text);
    one bilinear sample per bin, at a position the text does not give: ``centres`` (the bin's centre) or
    ``corners`` (bins spaced ``extent / (pooled - 1)`` from the box's first corner to its last, the centre when
    pooled is 1). They agree for one bin per axis or a box of zero extent. A sample off the map is unspecified.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _regions as rg
from ._errors import SpecViolation
from ._readings import Outputs, merge
from .schema import Attribute, Port, Schema, pooled

OP = "ROIPooling"
METHODS = ("max", "bilinear")
SCHEMA = Schema(
    "openvino", OP, (1,),
    attributes=(
        Attribute("pooled_h", "int", required=True),
        Attribute("pooled_w", "int", required=True),
        Attribute("spatial_scale", "float", required=True),
        Attribute("method", "enum", default="max", values=METHODS),
    ),
    inputs=(Port("data"), Port("rois")),
    outputs=(Port("output", rank_of=None),),
    axes=pooled(2),
    types=((0, rg.FLOATS),),
)
VERSIONS = SCHEMA.versions
READINGS = {"max": ("continuous", "rounded"), "bilinear": ("centres", "corners")}


def _attributes(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"{OP}-{since}"
    rg.known(label, attributes, SCHEMA.attribute_names(since))
    return {"pooled_h": rg.int_attribute(label, attributes, "pooled_h", None, 0),
            "pooled_w": rg.int_attribute(label, attributes, "pooled_w", None, 0),
            "spatial_scale": rg.scale_attribute(label, attributes),
            "method": rg.choice(label, attributes, "method", METHODS, "max")}


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs (data, rois), got {len(input_shapes)}")
    a = _attributes(since, attributes)
    x, rois = (tuple(s) for s in input_shapes)
    rg.check_shapes(f"{OP}-{since}", x, rois, 5)
    return [(rois[0], x[1], a["pooled_h"], a["pooled_w"])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """bilinear: K = 7, one sample (four products, three additions; the coordinates in ``magnitude``)."""
    return 7


def _round_half_away(v: float) -> int:
    return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)


def _max_bins(start: float, extent: float, pooled_n: int, size: int) -> list[tuple[int, int]]:
    """Each bin's touched pixels [first, end), clipped to the map."""
    bounds = []
    for i in range(pooled_n):
        lo, hi = start + i * extent / pooled_n, start + (i + 1) * extent / pooled_n
        bounds.append((min(max(math.floor(lo), 0), size), min(max(math.ceil(hi), 0), size)))
    return bounds


def _max_reading(x: np.ndarray, boxes: np.ndarray, a: dict[str, Any], reading: str) -> Outputs:
    n_rois, channels = boxes.shape[0], x.shape[1]
    height, width = x.shape[2:]
    shape = (n_rois, channels, a["pooled_h"], a["pooled_w"])
    y, mask = np.zeros(shape), np.zeros(shape, bool)
    scale = a["spatial_scale"]
    for r in range(n_rois):
        batch, x1, y1, x2, y2 = boxes[r]
        corners = [v * scale for v in (x1, y1, x2, y2)]
        if reading == "rounded":
            corners = [float(_round_half_away(v)) for v in corners]
        sx, sy, ex, ey = corners
        rows = _max_bins(sy, max(ey - sy, 1.0), a["pooled_h"], height)
        cols = _max_bins(sx, max(ex - sx, 1.0), a["pooled_w"], width)
        plane = x[int(batch)]
        for i, (top, bottom) in enumerate(rows):
            for j, (left, right) in enumerate(cols):
                window = plane[:, top:bottom, left:right].reshape(channels, -1)
                if window.shape[1] == 0:
                    mask[r, :, i, j] = True
                    continue
                nan = np.isnan(window).any(axis=1)
                y[r, :, i, j] = np.where(nan, np.nan, window.max(axis=1, initial=-np.inf))
                mask[r, nan, i, j] = True
    return [y], [mask]


def _positions(start: float, extent: float, pooled_n: int, reading: str) -> list[float]:
    if reading == "centres" or pooled_n == 1:
        return [start + (i + 0.5) * extent / pooled_n for i in range(pooled_n)]
    return [start + i * extent / (pooled_n - 1) for i in range(pooled_n)]


def _bilinear_reading(x: np.ndarray, boxes: np.ndarray, a: dict[str, Any], reading: str
                      ) -> tuple[Outputs, np.ndarray]:
    n_rois, channels = boxes.shape[0], x.shape[1]
    height, width = x.shape[2:]
    shape = (n_rois, channels, a["pooled_h"], a["pooled_w"])
    y, mask, mag = np.zeros(shape), np.zeros(shape, bool), np.zeros(shape)
    extent_max = float(max(height, width))
    for r in range(n_rois):
        batch, x1, y1, x2, y2 = boxes[r]
        rows = _positions(y1 * (height - 1), (height - 1) * (y2 - y1), a["pooled_h"], reading)
        cols = _positions(x1 * (width - 1), (width - 1) * (x2 - x1), a["pooled_w"], reading)
        plane = x[int(batch)]
        for i, yy in enumerate(rows):
            for j, xx in enumerate(cols):
                got = rg.sample(plane, yy, xx)
                if got is None:
                    mask[r, :, i, j] = True
                    continue
                y[r, :, i, j] = got[0]
                mag[r, :, i, j] = rg.sample_bound(got[1], got[2], extent_max) / 9.0
    return ([y], [mask]), mag


def _checked(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):
    if len(inputs) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs (data, rois), got {len(inputs)}")
    a = _attributes(since, attributes)
    x, rois = inputs
    rg.check_map(f"{OP}-{since}", x, rois, 5)
    rg.check_batch(f"{OP}-{since}", rois[:, 0], x.shape[0])
    return a, x.astype(np.float64), rois.astype(np.float64)


def readings(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Outputs]:
    a, x, boxes = _checked(since, inputs, attributes)
    found = {}
    for reading in READINGS[a["method"]]:
        if a["method"] == "max":
            (y,), (mask,) = _max_reading(x, boxes, a, reading)
        else:
            ((y,), (mask,)), _ = _bilinear_reading(x, boxes, a, reading)
        out = y.astype(inputs[0].dtype)
        out[mask] = np.nan
        found[reading] = ([out], [mask])
    return found


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    return merge(readings(since, inputs, attributes))


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """bilinear: the sample's Σw|x| and its coordinates' share (reference/_regions.py ``sample_bound``) / 9, the
    largest over the readings; max: |y| (a copy, judged exactly)."""
    a, x, boxes = _checked(since, inputs, attributes)
    if a["method"] == "max":
        return [np.abs(evaluate(since, inputs, attributes)[0][0].astype(np.float64))]
    return [np.maximum(*(_bilinear_reading(x, boxes, a, r)[1] for r in READINGS["bilinear"]))]
