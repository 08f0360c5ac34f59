"""OpenVINO's region ops (reference/_regions.py and the op modules) against loops written from the pages' words:
per box, per bin, per sample, each bilinear sample from its four pixels; the unspecified elements, the error
bound against a float32 computation, and planted factor-2 errors the loops catch."""

from __future__ import annotations

import math

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


def _run(op: str, version: int, inputs: list[np.ndarray], attributes: dict) -> tuple[np.ndarray, np.ndarray | None]:
    result = reference.evaluate("openvino", op, version, inputs, attributes)
    return result.outputs[0], result.unspecified[0]


def _bilinear(plane: np.ndarray, y: float, x: float) -> float | None:
    """The four pixels around (y, x), weighted by the complements of the fractional parts; None off the map."""
    h, w = plane.shape
    if y < 0 or x < 0 or y > h - 1 or x > w - 1:
        return None
    top, left = math.floor(y), math.floor(x)
    total = 0.0
    for r in (top, top + 1):
        for c in (left, left + 1):
            weight = (1 - abs(y - r)) * (1 - abs(x - c))
            if weight > 0:
                total += weight * float(plane[r, c])
    return total


def _loop_roi_align(x, rois, batch, ph, pw, ratio, scale, mode, aligned="asymmetric", mutate=None):
    """ROIAlign per the text: start and extent by aligned_mode, bins, ratio x ratio cell centres, avg or max."""
    scale = float(np.float32(scale)) * (2 if mutate == "scale" else 1)
    out = np.full((rois.shape[0], x.shape[1], ph, pw), np.nan)
    for r in range(rois.shape[0]):
        x1, y1, x2, y2 = (float(v) for v in rois[r])
        if aligned == "asymmetric":
            sx, sy = x1 * scale, y1 * scale
            w, h = max(scale * (x2 - x1), 1.0), max(scale * (y2 - y1), 1.0)
        else:
            shift = 0.5 * scale - 0.5 if aligned == "half_pixel" else -0.5
            sx, sy = x1 * scale + shift, y1 * scale + shift
            w, h = scale * (x2 - x1), scale * (y2 - y1)
        if w < 0 or h < 0:
            continue
        gy = ratio if ratio else math.ceil(h / ph)
        gx = ratio if ratio else math.ceil(w / pw)
        if mutate == "cells":
            gy, gx = 2 * gy, gx
        for c in range(x.shape[1]):
            plane = x[int(batch[r]), c].astype(np.float64)
            for i in range(ph):
                for j in range(pw):
                    values = []
                    for a in range(gy):
                        for b in range(gx):
                            yy = sy + i * h / ph + (a + 0.5) * h / ph / gy
                            xx = sx + j * w / pw + (b + 0.5) * w / pw / gx
                            values.append(_bilinear(plane, yy, xx))
                    if not values or any(v is None for v in values):
                        continue
                    out[r, c, i, j] = sum(values) / len(values) if mode == "avg" else max(values)
    return out


def _boxes(rng, n, h, w, scale):
    """Boxes whose samples stay on the map (corners in [0.5, extent - 1.5] / scale), some malformed."""
    xs = rng.uniform(0.5, (w - 1.5) / scale, (n, 2))
    ys = rng.uniform(0.5, (h - 1.5) / scale, (n, 2))
    return np.stack([xs[:, 0], ys[:, 0], xs[:, 1], ys[:, 1]], axis=1).astype(np.float32)


ALIGN = [(3, "asymmetric"), (9, "asymmetric"), (9, "half_pixel"), (9, "half_pixel_for_nn")]


@pytest.mark.parametrize(("version", "aligned"), ALIGN)
@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("ratio", [0, 1, 2, 3])
def test_roi_align_matches_the_loops(version, aligned, mode, ratio) -> None:
    rng = np.random.default_rng(ratio * 7 + version)
    x = rng.uniform(-3, 3, (2, 3, 9, 11)).astype(np.float32)
    scale = 0.5 if ratio % 2 else 1.0
    rois = _boxes(rng, 4, 9, 11, scale)
    batch = np.array([0, 1, 1, 0], np.int64)
    attributes = {"pooled_h": 2, "pooled_w": 3, "sampling_ratio": ratio, "spatial_scale": scale, "mode": mode}
    if version == 9:
        attributes["aligned_mode"] = aligned
    y, mask = _run("ROIAlign", version, [x, rois, batch], attributes)
    want = _loop_roi_align(x, rois, batch, 2, 3, ratio, scale, mode, aligned)
    unspecified = np.isnan(want) if mask is None else mask
    assert np.array_equal(np.isnan(want), unspecified)
    np.testing.assert_allclose(y[~unspecified], want[~unspecified].astype(np.float32), rtol=1e-6, atol=1e-6)
    for planted in ("scale", "cells"):  # a factor 2 in the scale or in the cell count is caught
        wrong = _loop_roi_align(x, rois, batch, 2, 3, ratio or 1, scale, mode, aligned, mutate=planted)
        both = ~unspecified & ~np.isnan(wrong)
        if ratio and both.any():
            assert not np.allclose(y[both], wrong[both], rtol=1e-4, atol=1e-4), planted


def test_roi_align_malformed_box_is_one_by_one_and_off_map_is_unspecified() -> None:
    x = np.arange(36, dtype=np.float32).reshape(1, 1, 6, 6)
    attributes = {"pooled_h": 1, "pooled_w": 1, "sampling_ratio": 1, "spatial_scale": 1.0, "mode": "avg"}
    rois = np.array([[3, 2, 1, 1], [1, 1, 11, 11]], np.float32)
    y, mask = _run("ROIAlign", 3, [x, rois, np.zeros(2, np.int64)], attributes)
    assert y[0, 0, 0, 0] == pytest.approx(2.5 * 6 + 3.5)  # the 1 x 1 box's centre (3.5, 2.5)
    assert mask is not None and mask[1].all() and not mask[0].any()  # the second box's centre (6, 6) is off the map


def _float32_roi_align(x, rois, ph, pw, ratio, mode):
    """asymmetric ROIAlign on image 0 with every operation rounded to float32 (what an f32 kernel computes)."""
    f = np.float32
    out = np.zeros((rois.shape[0], x.shape[1], ph, pw), np.float32)
    for r in range(rois.shape[0]):
        x1, y1, x2, y2 = (f(v) for v in rois[r])
        w, h = max(x2 - x1, f(1)), max(y2 - y1, f(1))
        bh, bw = h / f(ph), w / f(pw)
        gy = ratio or math.ceil(h / f(ph))
        gx = ratio or math.ceil(w / f(pw))
        for c in range(x.shape[1]):
            plane = x[0, c]
            for i in range(ph):
                for j in range(pw):
                    values = []
                    for a in range(gy):
                        for b in range(gx):
                            yy = y1 + f(i) * bh + (f(a) + f(0.5)) * bh / f(gy)
                            xx = x1 + f(j) * bw + (f(b) + f(0.5)) * bw / f(gx)
                            t, lft = int(math.floor(yy)), int(math.floor(xx))
                            ly, lx = yy - f(t), xx - f(lft)
                            t1, l1 = min(t + 1, plane.shape[0] - 1), min(lft + 1, plane.shape[1] - 1)
                            values.append((f(1) - ly) * (f(1) - lx) * plane[t, lft] + (f(1) - ly) * lx * plane[t, l1]
                                          + ly * (f(1) - lx) * plane[t1, lft] + ly * lx * plane[t1, l1])
                    out[r, c, i, j] = (np.sum(np.array(values, np.float32), dtype=np.float32) / f(len(values))
                                       if mode == "avg" else max(values))
    return out


def test_roi_align_bound_covers_a_float32_computation() -> None:
    """The magnitude's bound holds a float32 computation of the same formulas (the roundings it counts)."""
    rng = np.random.default_rng(5)
    x = rng.uniform(-50, 50, (1, 2, 30, 30)).astype(np.float32)
    rois = _boxes(rng, 5, 30, 30, 1.0)
    batch = np.zeros(5, np.int64)
    for mode in ("avg", "max"):
        attributes = {"pooled_h": 3, "pooled_w": 3, "sampling_ratio": 0, "spatial_scale": 1.0, "mode": mode}
        (mag,) = reference.magnitude("openvino", "ROIAlign", 3, [x, rois, batch], attributes)
        exact = _loop_roi_align(x, rois, batch, 3, 3, 0, 1.0, mode)
        computed = _float32_roi_align(x, rois, 3, 3, 0, mode).astype(np.float64)
        u = 2.0 ** -24
        bound = 9 * u * mag + u * np.abs(exact) + np.spacing(np.abs(exact).astype(np.float32))
        on_map = ~np.isnan(exact)  # a malformed box near the edge reaches past it
        assert on_map.sum() > 30
        assert (np.abs(computed - exact) <= bound)[on_map].all()
        assert (bound[on_map] < 1e-3 * np.abs(x).max()).all()  # and is no blanket tolerance
        assert (np.abs(computed - exact) > 1e-7).any()  # the computation did round


GOOD = {"pooled_h": 2, "pooled_w": 2, "sampling_ratio": 1, "spatial_scale": 1.0, "mode": "avg"}


@pytest.mark.parametrize(("attributes", "shapes"), [
    ({"pooled_h": 0, "pooled_w": 2, "sampling_ratio": 1, "spatial_scale": 1.0, "mode": "avg"}, None),
    ({"pooled_h": 2, "pooled_w": 2, "sampling_ratio": -1, "spatial_scale": 1.0, "mode": "avg"}, None),
    ({"pooled_h": 2, "pooled_w": 2, "sampling_ratio": 1, "spatial_scale": 0.0, "mode": "avg"}, None),
    ({"pooled_h": 2, "pooled_w": 2, "sampling_ratio": 1, "spatial_scale": 1.0, "mode": "sum"}, None),
    (GOOD, [(1, 1, 6), (1, 4), (1,)]),
    (GOOD, [(1, 1, 6, 6), (2, 4), (1,)]),
    (GOOD, [(1, 1, 6, 6), (1, 5), (1,)]),
])
def test_roi_align_refuses_what_the_text_forbids(attributes, shapes) -> None:
    shapes = shapes or [(1, 1, 6, 6), (1, 4), (1,)]
    with pytest.raises(SpecViolation):
        reference.output_shapes("openvino", "ROIAlign", 3, shapes, attributes)


def _loop_roi_pooling_max(x, rois, ph, pw, scale, rounded, factor=1.0):
    """Per box, per bin: the maximum of every pixel the bin touches (its real bounds floored and ceiled)."""
    scale = float(np.float32(scale)) * factor
    out = np.full((rois.shape[0], x.shape[1], ph, pw), np.nan)
    h, w = x.shape[2:]
    for r in range(rois.shape[0]):
        b, x1, y1, x2, y2 = (float(v) for v in rois[r])
        corners = [v * scale for v in (x1, y1, x2, y2)]
        if rounded:
            corners = [math.copysign(math.floor(abs(v) + 0.5), v) for v in corners]
        bw, bh = max(corners[2] - corners[0], 1.0) / pw, max(corners[3] - corners[1], 1.0) / ph
        for c in range(x.shape[1]):
            for i in range(ph):
                for j in range(pw):
                    best = None
                    for row in range(h):
                        for col in range(w):
                            inside_y = math.floor(corners[1] + i * bh) <= row < math.ceil(corners[1] + (i + 1) * bh)
                            inside_x = math.floor(corners[0] + j * bw) <= col < math.ceil(corners[0] + (j + 1) * bw)
                            if inside_y and inside_x:
                                v = float(x[int(b), c, row, col])
                                best = v if best is None else max(best, v)
                    if best is not None:
                        out[r, c, i, j] = best
    return out


def test_roi_pooling_max_is_where_both_readings_agree() -> None:
    rng = np.random.default_rng(11)
    x = rng.uniform(-3, 3, (2, 2, 9, 11)).astype(np.float32)
    rois = np.array([[0, 3, 2, 19, 15], [1, 5, 1, 12.5, 11], [1, 4, 4, 2, 3], [0, 0, 0, 12, 8]], np.float32)
    attributes = {"pooled_h": 3, "pooled_w": 2, "spatial_scale": 0.5}
    y, mask = _run("ROIPooling", 1, [x, rois], attributes)
    loops = [_loop_roi_pooling_max(x, rois, 3, 2, 0.5, rounded) for rounded in (False, True)]
    agree = loops[0] == loops[1]
    unspecified = np.zeros(y.shape, bool) if mask is None else mask
    assert np.array_equal(unspecified, ~agree) and agree.sum() > 10
    assert np.array_equal(y[agree], loops[0][agree].astype(np.float32))
    doubled = _loop_roi_pooling_max(x, rois, 3, 2, 0.5, False, factor=2.0)  # a planted factor 2 in the scale
    assert not np.array_equal(y[agree], doubled[agree].astype(np.float32))
    result = reference.readings("openvino", "ROIPooling", 1, [x, rois], attributes)
    assert set(result) == {"continuous", "rounded"}


def _loop_roi_pooling_bilinear(x, rois, ph, pw, corners):
    """One bilinear sample per bin at its centre, or on the grid from the box's first corner to its last."""
    h, w = x.shape[2:]
    out = np.full((rois.shape[0], x.shape[1], ph, pw), np.nan)
    for r in range(rois.shape[0]):
        b, x1, y1, x2, y2 = (float(v) for v in rois[r])
        for c in range(x.shape[1]):
            for i in range(ph):
                for j in range(pw):
                    if corners and ph > 1:
                        yy = y1 * (h - 1) + i * (y2 - y1) * (h - 1) / (ph - 1)
                    else:
                        yy = y1 * (h - 1) + (i + 0.5) * (y2 - y1) * (h - 1) / ph
                    if corners and pw > 1:
                        xx = x1 * (w - 1) + j * (x2 - x1) * (w - 1) / (pw - 1)
                    else:
                        xx = x1 * (w - 1) + (j + 0.5) * (x2 - x1) * (w - 1) / pw
                    v = _bilinear(x[int(b), c].astype(np.float64), yy, xx)
                    out[r, c, i, j] = np.nan if v is None else v
    return out


@pytest.mark.parametrize(("ph", "pw"), [(1, 1), (3, 3), (2, 4)])
def test_roi_pooling_bilinear_matches_the_loops(ph, pw) -> None:
    rng = np.random.default_rng(ph * 10 + pw)
    x = rng.uniform(-3, 3, (2, 2, 7, 9)).astype(np.float32)
    rois = np.array([[0, 0.1, 0.2, 0.9, 0.7], [1, 0.25, 0.0, 0.5, 1.0], [1, 0.3, 0.4, 0.3, 0.4]], np.float32)
    y, mask = _run("ROIPooling", 1, [x, rois], {"pooled_h": ph, "pooled_w": pw, "spatial_scale": 1.0,
                                                "method": "bilinear"})
    centres, grid = (_loop_roi_pooling_bilinear(x, rois, ph, pw, c) for c in (False, True))
    agree = np.isclose(centres, grid, rtol=0, atol=1e-12)
    unspecified = np.zeros(y.shape, bool) if mask is None else mask
    assert np.array_equal(unspecified, ~agree)
    assert agree[2].all()  # a box of zero extent: one point in every reading
    np.testing.assert_allclose(y[agree], centres[agree].astype(np.float32), rtol=1e-6, atol=1e-6)
    halved = _loop_roi_pooling_bilinear(x, rois * np.float32([1, 0.5, 0.5, 0.5, 0.5]), ph, pw, False)
    assert not np.allclose(y[agree], halved[agree], rtol=1e-3, atol=1e-3)  # a planted factor 2 in the corners


@pytest.mark.parametrize("attributes", [{"pooled_h": -1, "pooled_w": 2, "spatial_scale": 1.0},
                                        {"pooled_h": 2, "pooled_w": 2, "spatial_scale": -1.0},
                                        {"pooled_h": 2, "pooled_w": 2},
                                        {"pooled_h": 2, "pooled_w": 2, "spatial_scale": 1.0, "method": "avg"}])
def test_roi_pooling_refuses_what_the_text_forbids(attributes) -> None:
    with pytest.raises(SpecViolation):
        reference.output_shapes("openvino", "ROIPooling", 1, [(1, 1, 6, 6), (1, 5)], attributes)
    assert reference.output_shapes("openvino", "ROIPooling", 1, [(1, 1, 6, 6), (3, 5)],
                                   {"pooled_h": 0, "pooled_w": 2, "spatial_scale": 1.0}) == [(3, 1, 0, 2)]


def _loop_psroi_average(x, rois, out_dim, g, scale, rounded, channel=None):
    """Per box, output channel, bin: the mean of the touched pixels of channel (c * G + i) * G + j."""
    scale = float(np.float32(scale))
    channel = channel or (lambda c, i, j: (c * g + i) * g + j)
    h, w = x.shape[2:]
    out = np.full((rois.shape[0], out_dim, g, g), np.nan)
    for r in range(rois.shape[0]):
        corners = [float(v) * scale for v in rois[r, 1:]]
        if rounded:
            corners = [math.copysign(math.floor(abs(v) + 0.5), v) for v in corners]
        bw, bh = (corners[2] - corners[0]) / g, (corners[3] - corners[1]) / g
        for c in range(out_dim):
            for i in range(g):
                for j in range(g):
                    pixels = [float(x[int(rois[r, 0]), channel(c, i, j), row, col])
                              for row in range(h) for col in range(w)
                              if math.floor(corners[1] + i * bh) <= row < math.ceil(corners[1] + (i + 1) * bh)
                              and math.floor(corners[0] + j * bw) <= col < math.ceil(corners[0] + (j + 1) * bw)]
                    if pixels:
                        out[r, c, i, j] = sum(pixels) / len(pixels)
    return out


def test_psroi_average_matches_the_loops_where_both_readings_agree() -> None:
    rng = np.random.default_rng(13)
    x = rng.uniform(-3, 3, (2, 18, 9, 11)).astype(np.float32)
    rois = np.array([[0, 3, 2, 19, 15], [1, 5, 1, 12.5, 11], [1, 0, 0, 12, 12]], np.float32)
    attributes = {"output_dim": 2, "group_size": 3, "spatial_scale": 0.5}
    y, mask = _run("PSROIPooling", 1, [x, rois], attributes)
    loops = [_loop_psroi_average(x, rois, 2, 3, 0.5, rounded) for rounded in (False, True)]
    agree = np.isclose(loops[0], loops[1], rtol=0, atol=1e-12)
    unspecified = np.zeros(y.shape, bool) if mask is None else mask
    assert np.array_equal(unspecified, ~agree) and agree.sum() >= 18
    np.testing.assert_allclose(y[agree], loops[0][agree].astype(np.float32), rtol=1e-6, atol=1e-6)
    swapped = _loop_psroi_average(x, rois, 2, 3, 0.5, False, channel=lambda c, i, j: (i * 3 + j) * 2 + c)
    assert not np.allclose(y[agree], swapped[agree], rtol=1e-3)  # another channel layout is caught
    doubled = _loop_psroi_average(x, rois, 2, 3, 1.0, False)  # a planted factor 2 in the scale
    assert not np.allclose(y[agree], doubled[agree], rtol=1e-3, equal_nan=True)
    (mag,) = reference.magnitude("openvino", "PSROIPooling", 1, [x, rois], attributes)
    assert (mag[agree] >= np.abs(y[agree])).all()  # (K + 2)·mean|x| / 3 with K >= 1 pixels: at least |y|


def test_psroi_bilinear_checks_the_shape_only() -> None:
    x = np.zeros((1, 36, 12, 12), np.float32)
    rois = np.array([[0, 0.1, 0.1, 0.8, 0.9]], np.float32)
    attributes = {"output_dim": 4, "group_size": 6, "spatial_scale": 1.0, "mode": "bilinear",
                  "spatial_bins_x": 3, "spatial_bins_y": 3}
    y, mask = _run("PSROIPooling", 1, [x, rois], attributes)
    assert y.shape == (1, 4, 6, 6) and mask is not None and mask.all()
    assert reference.output_shapes("openvino", "PSROIPooling", 1, [(1, 3240, 38, 38), (100, 5)],
                                   {**attributes, "output_dim": 360}) == [(100, 360, 6, 6)]  # the page's example
    with pytest.raises(SpecViolation):
        reference.output_shapes("openvino", "PSROIPooling", 1, [(1, 35, 12, 12), (1, 5)], attributes)


def _loop_rotated(x, rois, batch, ph, pw, ratio, scale, clockwise, display, angle_factor=1.0):
    """Per box, bin, sample: the grid point about the centre (scaled, shifted by -0.5), turned by the angle."""
    scale = float(np.float32(scale))
    out = np.full((rois.shape[0], x.shape[1], ph, pw), np.nan)
    for r in range(rois.shape[0]):
        cx, cy, w, h, angle = (float(v) for v in rois[r])
        cx, cy, w, h = cx * scale - 0.5, cy * scale - 0.5, w * scale, h * scale
        theta = (-angle if clockwise else angle) * angle_factor
        gy, gx = ratio or math.ceil(h / ph), ratio or math.ceil(w / pw)
        for c in range(x.shape[1]):
            for i in range(ph):
                for j in range(pw):
                    values = []
                    for a in range(gy):
                        for b in range(gx):
                            ly = -h / 2 + (i + (a + 0.5) / gy) * h / ph
                            lx = -w / 2 + (j + (b + 0.5) / gx) * w / pw
                            if display:  # seen on screen (y down): right turns up
                                xx = cx + lx * math.cos(theta) + ly * math.sin(theta)
                                yy = cy - lx * math.sin(theta) + ly * math.cos(theta)
                            else:
                                xx = cx + lx * math.cos(theta) - ly * math.sin(theta)
                                yy = cy + lx * math.sin(theta) + ly * math.cos(theta)
                            values.append(_bilinear(x[int(batch[r]), c].astype(np.float64), yy, xx))
                    if values and all(v is not None for v in values):
                        out[r, c, i, j] = sum(values) / len(values)
    return out


@pytest.mark.parametrize("clockwise", [False, True])
@pytest.mark.parametrize("ratio", [0, 2])
def test_roi_align_rotated_matches_the_loops(clockwise, ratio) -> None:
    rng = np.random.default_rng(17 + ratio)
    x = rng.uniform(-3, 3, (2, 2, 14, 14)).astype(np.float32)
    rois = np.array([[7, 7, 6, 4, 0.3], [6.5, 7.5, 5, 5, -1.1], [7, 6, 5, 3, 0.0], [7, 7, 1.5, 2.5, 2.0]], np.float32)
    batch = np.array([0, 1, 1, 0], np.int64)
    attributes = {"pooled_h": 2, "pooled_w": 3, "sampling_ratio": ratio, "spatial_scale": 1.0,
                  "clockwise_mode": clockwise}
    y, mask = _run("ROIAlignRotated", 15, [x, rois, batch], attributes)
    display, axes = (_loop_rotated(x, rois, batch, 2, 3, ratio, 1.0, clockwise, d) for d in (True, False))
    agree = np.isclose(display, axes, rtol=0, atol=1e-6)
    unspecified = np.zeros(y.shape, bool) if mask is None else mask
    assert not unspecified[agree].any() and unspecified[~agree].all()
    assert agree[2].all() and not agree[0].all()  # angle 0 agrees, 0.3 rad does not
    np.testing.assert_allclose(y[agree], display[agree].astype(np.float32), rtol=1e-5, atol=1e-5)
    for reading, loop in (("display", display), ("axes", axes)):  # each reading is its loop, at every angle
        got = reference.readings("openvino", "ROIAlignRotated", 15, [x, rois, batch], attributes)[reading]
        np.testing.assert_allclose(got.outputs[0], loop, rtol=1e-5, atol=1e-5, equal_nan=True)
    doubled = _loop_rotated(x, rois, batch, 2, 3, ratio, 1.0, clockwise, True, angle_factor=2.0)
    assert not np.allclose(display[:2], doubled[:2], atol=1e-3, equal_nan=True)  # a planted factor 2 in the angle


def test_roi_align_rotated_at_angle_zero_is_roi_align_about_the_centre() -> None:
    rng = np.random.default_rng(19)
    x = rng.uniform(-3, 3, (1, 2, 12, 12)).astype(np.float32)
    rois = np.array([[6, 5, 6, 4, 0], [5.5, 6.25, 3, 5, 0]], np.float32)
    batch = np.zeros(2, np.int64)
    y, _ = _run("ROIAlignRotated", 14, [x, rois, batch], {"pooled_h": 2, "pooled_w": 2, "sampling_ratio": 2,
                                                          "spatial_scale": 0.5})
    corners = np.stack([rois[:, 0] - rois[:, 2] / 2, rois[:, 1] - rois[:, 3] / 2,
                        rois[:, 0] + rois[:, 2] / 2, rois[:, 1] + rois[:, 3] / 2], axis=1)
    want = _loop_roi_align(x, corners, batch, 2, 2, 2, 0.5, "avg", "half_pixel_for_nn")
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)
