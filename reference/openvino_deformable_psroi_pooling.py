"""OpenVINO DeformablePSROIPooling-1 (detection/deformable-psroi-pooling-1.rst): position-sensitive pooling of boxes
``[NUM_ROIS, 5] = [batch_id, x_1, y_1, x_2, y_2]`` over score maps ``[N, C, H, W]``, each bin's sub-bin samples
averaged, each bin optionally moved by an offset.

The page states the shapes, the channel layout (``C = output_dim * group_size²``: output channel ``c``'s bin (i, j)
reads input channel ``(c * group_size + i) * group_size + j``), ``trans_std`` and the average of
``spatial_bins_x * spatial_bins_y`` bilinear samples, and claims compatibility with MXNet's DeformablePSROIPooling
where group_size equals the pooled size. MXNet's formulas fill the rest (docs/spec-notes.md, "OpenVINO
DeformablePSROIPooling-1"):
  * the box: corners rounded half away from zero, ``start = round(x_1) * spatial_scale - 0.5``, ``end = (round(x_2)
    + 1) * spatial_scale - 0.5``, its extent at least 0.1; ``group_size`` bins per axis, each
    ``spatial_bins_x`` by ``spatial_bins_y`` sub-bins;
  * the offsets ``[NUM_ROIS, 2 * NUM_CLASSES, part_size, part_size]`` (x, y per class; output channel ``c`` is of
    class ``c // (output_dim / NUM_CLASSES)``): bin (i, j) reads part ``(i * part_size // group_size, j * part_size
    // group_size)``, and moves by ``offset * trans_std`` times the box's extent;
  * sample ``(iy, ix)`` at the sub-bin's top-left corner ``start + j * bin + offset + ix * sub_bin``; a sample
    outside ``[-0.5, W - 0.5]`` (or H) is skipped, one inside is clamped to ``[0, W - 1]`` and read bilinearly; a
    bin with no sample is 0.

Unspecified: a bin with a sample within rounding of the skip bounds (its count depends on the last bit), a bin
reading a tap that is not finite, a box whose batch_id is not an integer of ``[0, N - 1]``.

Judged as ROIAlign's average (reference/_regions.py ``sample_bound``): K = 7 per bilinear sample and one rounding
for the division by the count, the magnitude carrying the samples' sum and each sample's coordinate error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _regions as rg
from ._errors import SpecViolation
from .schema import Attribute, Port, Schema, pooled

OP = "DeformablePSROIPooling"
LABEL = f"{OP}-1"
SCHEMA = Schema(
    "openvino", OP, (1,),
    attributes=(
        Attribute("output_dim", "int", required=True),
        Attribute("spatial_scale", "float", required=True),
        Attribute("group_size", "int", default=1),
        Attribute("mode", "enum", default="bilinear_deformable", values=("bilinear_deformable",)),
        Attribute("spatial_bins_x", "int", default=1),
        Attribute("spatial_bins_y", "int", default=1),
        Attribute("trans_std", "float", default=1.0),
        Attribute("part_size", "int", default=1),
    ),
    inputs=(Port("data"), Port("rois"), Port("offsets", optional=True)),
    outputs=(Port("output", rank_of=None),),
    axes=pooled(2),
    types=((0, rg.FLOATS),),
)
VERSIONS = SCHEMA.versions
#: a sample this close (times the map's extent) to a skip bound counts or not by the last bit of its coordinate
_EDGE = 1e-5


def _attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    rg.known(LABEL, attributes, SCHEMA.attribute_names(1))
    found: dict[str, Any] = {name: rg.int_attribute(LABEL, attributes, name, default, 1) for name, default in
                             (("output_dim", None), ("group_size", 1), ("spatial_bins_x", 1), ("spatial_bins_y", 1),
                              ("part_size", 1))}
    found["spatial_scale"] = rg.scale_attribute(LABEL, attributes)
    found["mode"] = rg.choice(LABEL, attributes, "mode", ("bilinear_deformable",), "bilinear_deformable")
    trans_std = attributes.get("trans_std", 1.0)
    if isinstance(trans_std, bool) or not isinstance(trans_std, int | float | np.floating | np.integer):
        raise SpecViolation(f"{LABEL}: trans_std is a float, got {trans_std!r}")
    found["trans_std"] = float(np.float32(trans_std))
    return found


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    a = _attributes(attributes)
    if len(input_shapes) not in (2, 3):
        raise SpecViolation(f"{LABEL} takes data, rois and optional offsets, got {len(input_shapes)} inputs")
    data, rois = tuple(input_shapes[0]), tuple(input_shapes[1])
    rg.check_shapes(LABEL, data, rois, 5)
    g = a["group_size"]
    if data[1] != a["output_dim"] * g * g:
        raise SpecViolation(f"{LABEL}: C_in {data[1]} is output_dim {a['output_dim']} times group_size² {g * g}")
    if len(input_shapes) == 3:
        offsets, part = tuple(input_shapes[2]), a["part_size"]
        if (len(offsets) != 4 or offsets[0] != rois[0] or offsets[1] < 2 or offsets[1] % 2
                or offsets[2:] != (part, part)):
            raise SpecViolation(f"{LABEL}: offsets are [NUM_ROIS {rois[0]}, 2 * NUM_CLASSES, part_size {part}, "
                                f"part_size], got {list(offsets)}")
        if a["output_dim"] % (offsets[1] // 2):
            raise SpecViolation(f"{LABEL}: output_dim {a['output_dim']} is no multiple of NUM_CLASSES "
                                f"{offsets[1] // 2}")
    return [(rois[0], a["output_dim"], g, g)]


def _round_half_away(v: np.ndarray) -> np.ndarray:
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def _pool(inputs: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(output, unspecified, magnitude) in float64."""
    output_shapes(1, [np.shape(x) for x in inputs], attributes)
    a = _attributes(attributes)
    x, rois = inputs[0], inputs[1]
    rg.check_map(LABEL, x, rois, 5)
    if len(inputs) == 3 and inputs[2].dtype != x.dtype:
        raise SpecViolation(f"{LABEL}: offsets are of T, {rg.dtype_name(x)}; got {rg.dtype_name(inputs[2])}")
    n, _, height, width = x.shape
    g, d, sy, sx, part = a["group_size"], a["output_dim"], a["spatial_bins_y"], a["spatial_bins_x"], a["part_size"]
    boxes = rois.astype(np.float64)
    batch = boxes[:, 0]
    bad_batch = ~((batch == np.floor(batch)) & (batch >= 0) & (batch <= n - 1))
    b = np.where(bad_batch, 0, batch).astype(np.int64)
    corner = _round_half_away(boxes[:, 1:5])
    scale = a["spatial_scale"]
    start_w, start_h = corner[:, 0] * scale - 0.5, corner[:, 1] * scale - 0.5
    roi_w = np.maximum((corner[:, 2] + 1) * scale - 0.5 - start_w, 0.1)
    roi_h = np.maximum((corner[:, 3] + 1) * scale - 0.5 - start_h, 0.1)
    bins = np.arange(g)
    parts = bins * part // g  # exact: floor(i / group_size * part_size)
    classes = inputs[2].shape[1] // 2 if len(inputs) == 3 else 1
    if len(inputs) == 3:
        trans = inputs[2].astype(np.float64)[:, :, parts][:, :, :, parts] * a["trans_std"]  # [R, 2C, g, g]
        trans_x, trans_y = trans[:, 0::2], trans[:, 1::2]  # [R, classes, g, g]
    else:
        trans_x = trans_y = np.zeros((len(boxes), 1, g, g))
    r4 = (slice(None), None, None, None)
    w0 = bins[None, None, None, :] * (roi_w / g)[r4] + start_w[r4] + trans_x * roi_w[r4]  # [R, classes, g, g]
    h0 = bins[None, None, :, None] * (roi_h / g)[r4] + start_h[r4] + trans_y * roi_h[r4]
    # samples [R, classes, g, g, sy, sx]
    w = w0[..., None, None] + np.arange(sx)[None, :] * (roi_w / g / sx)[:, None, None, None, None, None]
    h = h0[..., None, None] + np.arange(sy)[:, None] * (roi_h / g / sy)[:, None, None, None, None, None]
    w, h = np.broadcast_arrays(w, h)
    inside = (w >= -0.5) & (w <= width - 0.5) & (h >= -0.5) & (h <= height - 0.5)
    extent = np.maximum(max(height, width), np.abs(np.stack([w, h])).max(axis=0))
    near = ((np.abs(w + 0.5) < _EDGE * extent) | (np.abs(w - (width - 0.5)) < _EDGE * extent)
            | (np.abs(h + 0.5) < _EDGE * extent) | (np.abs(h - (height - 0.5)) < _EDGE * extent))
    wc, hc = np.clip(w, 0, width - 1), np.clip(h, 0, height - 1)
    x_lo, y_lo = np.floor(wc).astype(np.int64), np.floor(hc).astype(np.int64)
    x_hi, y_hi = np.ceil(wc).astype(np.int64), np.ceil(hc).astype(np.int64)
    dx, dy = wc - x_lo, hc - y_lo
    # per output channel: its class's samples, its input channel (c * g + i) * g + j
    cls = np.arange(d) // (d // classes)
    channel = (np.arange(d)[:, None, None] * g + bins[:, None]) * g + bins[None, :]  # [d, g, g]
    pick = (slice(None), cls)
    flat = x.astype(np.float64).reshape(n, -1, height * width)
    taps = ((y_lo, x_lo, (1 - dx) * (1 - dy)), (y_hi, x_lo, (1 - dx) * dy), (y_lo, x_hi, dx * (1 - dy)),
            (y_hi, x_hi, dx * dy))
    value = np.zeros((len(boxes), d, g, g, sy, sx))
    weighted, largest, finite = np.zeros_like(value), np.zeros_like(value), np.ones(value.shape, bool)
    where = (b[:, None, None, None, None, None], channel[None, :, :, :, None, None])
    for yy, xx, weight in taps:
        v = flat[where[0], where[1], (yy * width + xx)[pick]]
        wt = weight[pick]
        finite &= np.isfinite(v)
        v = np.nan_to_num(v, nan=0.0, posinf=0.0, neginf=0.0)
        value += wt * v
        weighted += wt * np.abs(v)
        largest = np.maximum(largest, np.abs(v))
    used = inside[pick]
    count = used.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        y = np.where(count > 0, (value * used).sum(axis=(-2, -1)) / np.maximum(count, 1), 0.0)
        bounds = rg.sample_bound(weighted, largest, float(extent.max(initial=0.0)))
        mag = np.where(count > 0, ((count + 2) * (weighted * used).sum(axis=(-2, -1))
                                   + (bounds * used).sum(axis=(-2, -1))) / np.maximum(count, 1) / 9.0, 0.0)
    mask = (near[pick] | (used & ~finite)).any(axis=(-2, -1)) | bad_batch[:, None, None, None]
    return y, mask, mag


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    y, mask, _ = _pool(inputs, attributes)
    out = y.astype(inputs[0].dtype)
    out[mask] = np.nan
    return [out], [mask if mask.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """The averaging bound's scale, as ROIAlign's: the samples' Σw|x| and their coordinates' share."""
    return [_pool(inputs, attributes)[2]]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K = 7, one sample's arithmetic (four products, three additions); the count and the coordinates are in
    ``magnitude``."""
    return 7
