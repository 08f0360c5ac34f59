"""OpenVINO PSROIPooling-1 (detection/psroi-pooling-1.rst): position-sensitive pooling of boxes
[num_boxes, 5] = [batch_id, x_1, y_1, x_2, y_2] over score maps [N, C, H, W].

The text gives no formula; what it does say, and where the reference takes the rest (docs/spec-notes.md):
  * output [num_boxes, output_dim, group_size, group_size] (the page's example: 3240 channels, output_dim 360,
    group_size 6 give [100, 360, 6, 6]);
  * ``average``: corners in absolute values times ``spatial_scale``; the box in group_size x group_size equal
    bins; output channel c's bin (i, j) averages the pixels the bin touches in input channel
    ``(c * group_size + i) * group_size + j`` (position-sensitive: DeformablePSROIPooling-1's text, "each group
    corresponds to exactly one output channel and ROI's bins are spread over input channel group members", so
    C = output_dim * group_size²). Whether the corners are rounded to pixels is a reading (``continuous``,
    ``rounded``); elements where they differ are unspecified, as a bin with no pixel on the map and every bin
    of a box of negative extent;
  * ``bilinear``: corners normalised to [0, 1], C = output_dim * spatial_bins_x * spatial_bins_y (the example);
    the text names neither the sample positions nor which channel a bin reads: every element is unspecified,
    the shape checked.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _regions as rg
from ._errors import SpecViolation
from ._readings import Outputs, merge
from .schema import Attribute, Port, Schema, pooled

OP = "PSROIPooling"
MODES = ("average", "bilinear")
SCHEMA = Schema(
    "openvino", OP, (1,),
    attributes=(
        Attribute("output_dim", "int", required=True),
        Attribute("group_size", "int", default=1),
        Attribute("spatial_scale", "float", required=True),
        Attribute("mode", "enum", default="average", values=MODES),
        Attribute("spatial_bins_x", "int", default=1),
        Attribute("spatial_bins_y", "int", default=1),
    ),
    inputs=(Port("data"), Port("rois")),
    outputs=(Port("output", rank_of=None),),
    axes=pooled(2),
    types=((0, rg.FLOATS),),
)
VERSIONS = SCHEMA.versions
READINGS = ("continuous", "rounded")


def _attributes(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"{OP}-{since}"
    rg.known(label, attributes, SCHEMA.attribute_names(since))
    found: dict[str, Any] = {name: rg.int_attribute(label, attributes, name, default, 1) for name, default in
                             (("output_dim", None), ("group_size", 1), ("spatial_bins_x", 1), ("spatial_bins_y", 1))}
    found["spatial_scale"] = rg.scale_attribute(label, attributes)
    found["mode"] = rg.choice(label, attributes, "mode", MODES, "average")
    return found


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"{OP}-{since}"
    if len(input_shapes) != 2:
        raise SpecViolation(f"{label} takes two inputs (data, rois), got {len(input_shapes)}")
    a = _attributes(since, attributes)
    x, rois = (tuple(s) for s in input_shapes)
    rg.check_shapes(label, x, rois, 5)
    per = a["group_size"] ** 2 if a["mode"] == "average" else a["spatial_bins_x"] * a["spatial_bins_y"]
    if x[1] != a["output_dim"] * per:
        raise SpecViolation(f"{label}: {x[1]} input channels; {a['mode']} takes output_dim * {per} = "
                            f"{a['output_dim'] * per}")
    return [(rois[0], a["output_dim"], a["group_size"], a["group_size"])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K = 1 here: a bin's pixel count depends on the boxes' values, so ``magnitude`` carries it."""
    return 1


def _bins(start: float, extent: float, groups: int, size: int) -> list[tuple[int, int]]:
    return [(min(max(math.floor(start + i * extent / groups), 0), size),
             min(max(math.ceil(start + (i + 1) * extent / groups), 0), size)) for i in range(groups)]


def _average(x: np.ndarray, boxes: np.ndarray, a: dict[str, Any], reading: str) -> tuple[Outputs, np.ndarray]:
    g, out_dim = a["group_size"], a["output_dim"]
    height, width = x.shape[2:]
    shape = (boxes.shape[0], out_dim, g, g)
    y, mask, mag = np.zeros(shape), np.zeros(shape, bool), np.zeros(shape)
    for r in range(boxes.shape[0]):
        corners = [v * a["spatial_scale"] for v in boxes[r, 1:]]
        if reading == "rounded":
            corners = [math.copysign(math.floor(abs(v) + 0.5), v) for v in corners]
        sx, sy, ex, ey = corners
        if ex < sx or ey < sy:
            mask[r] = True
            continue
        rows, cols = _bins(sy, ey - sy, g, height), _bins(sx, ex - sx, g, width)
        for c in range(out_dim):
            for i, (top, bottom) in enumerate(rows):
                for j, (left, right) in enumerate(cols):
                    window = x[int(boxes[r, 0]), (c * g + i) * g + j, top:bottom, left:right]
                    if window.size == 0 or not np.isfinite(window).all():
                        mask[r, c, i, j] = True
                        continue
                    y[r, c, i, j] = window.mean()
                    # the averaging bound (K + 2)·u·mean|x| with K the bin's pixels, at window_elements' K = 1
                    mag[r, c, i, j] = np.abs(window).mean() * (window.size + 2) / 3.0
    return ([y], [mask]), mag


def _checked(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):
    if len(inputs) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs (data, rois), got {len(inputs)}")
    x, rois = inputs
    rg.check_map(f"{OP}-{since}", x, rois, 5)
    output_shapes(since, [x.shape, rois.shape], attributes)
    rg.check_batch(f"{OP}-{since}", rois[:, 0], x.shape[0])
    return _attributes(since, attributes), x.astype(np.float64), rois.astype(np.float64)


def readings(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Outputs]:
    a, x, boxes = _checked(since, inputs, attributes)
    shape = (boxes.shape[0], a["output_dim"], a["group_size"], a["group_size"])
    if a["mode"] == "bilinear":  # no formula in the text: nothing to compare but the shape
        return {"bilinear": ([np.full(shape, np.nan, inputs[0].dtype)], [np.ones(shape, bool)])}
    found = {}
    for reading in READINGS:
        ((y,), (mask,)), _ = _average(x, boxes, a, reading)
        out = y.astype(inputs[0].dtype)
        out[mask] = np.nan
        found[reading] = ([out], [mask])
    return found


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    return merge(readings(since, inputs, attributes))


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """mean|x| of the bin times (K + 2) / 3, the largest over the readings (K its pixel count)."""
    a, x, boxes = _checked(since, inputs, attributes)
    if a["mode"] == "bilinear":
        return [np.zeros((boxes.shape[0], a["output_dim"], a["group_size"], a["group_size"]))]
    return [np.maximum(*(_average(x, boxes, a, r)[1] for r in READINGS))]
