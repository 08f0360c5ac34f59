"""OpenVINO DeformablePSROIPooling-1 (reference/openvino_deformable_psroi_pooling.py) against a loop over every output
element and sample, written from the formulas (MXNet's, which the page claims compatibility with), one value at a
time; its unspecified bins, its magnitude, and what the text forbids."""

from __future__ import annotations

import math

import numpy as np
import pytest

import conformance_reference as reference


def _round(v: float) -> float:
    return math.copysign(math.floor(abs(v) + 0.5), v)


def _bilinear(plane: np.ndarray, x: float, y: float) -> float:
    x1, x2, y1, y2 = math.floor(x), math.ceil(x), math.floor(y), math.ceil(y)
    dx, dy = x - x1, y - y1
    return ((1 - dx) * (1 - dy) * plane[y1, x1] + (1 - dx) * dy * plane[y2, x1] + dx * (1 - dy) * plane[y1, x2]
            + dx * dy * plane[y2, x2])


def _loop(x, rois, offsets, a):
    """The formulas; float attributes as the float32 an IR attribute holds (0.2 is 0.2000000029...)."""
    a = {**a, "spatial_scale": float(np.float32(a["spatial_scale"])), "trans_std": float(np.float32(a["trans_std"]))}
    g, d, sx, sy, part = a["group_size"], a["output_dim"], a["spatial_bins_x"], a["spatial_bins_y"], a["part_size"]
    height, width = x.shape[2:]
    classes = offsets.shape[1] // 2 if offsets is not None else 1
    out = np.zeros((len(rois), d, g, g))
    for r, (b, x1, y1, x2, y2) in enumerate(rois.astype(float)):
        start_w, start_h = _round(x1) * a["spatial_scale"] - 0.5, _round(y1) * a["spatial_scale"] - 0.5
        roi_w = max((_round(x2) + 1) * a["spatial_scale"] - 0.5 - start_w, 0.1)
        roi_h = max((_round(y2) + 1) * a["spatial_scale"] - 0.5 - start_h, 0.1)
        for c in range(d):
            cls = c // (d // classes)
            for i in range(g):
                for j in range(g):
                    pi, pj = i * part // g, j * part // g
                    tx = 0.0 if offsets is None else offsets[r, 2 * cls, pi, pj] * a["trans_std"]
                    ty = 0.0 if offsets is None else offsets[r, 2 * cls + 1, pi, pj] * a["trans_std"]
                    w0 = j * roi_w / g + start_w + tx * roi_w
                    h0 = i * roi_h / g + start_h + ty * roi_h
                    total, count = 0.0, 0
                    for iy in range(sy):
                        for ix in range(sx):
                            w, h = w0 + ix * roi_w / g / sx, h0 + iy * roi_h / g / sy
                            if w < -0.5 or w > width - 0.5 or h < -0.5 or h > height - 0.5:
                                continue
                            w, h = min(max(w, 0.0), width - 1.0), min(max(h, 0.0), height - 1.0)
                            total += _bilinear(x[int(b), (c * g + i) * g + j], w, h)
                            count += 1
                    out[r, c, i, j] = total / count if count else 0.0
    return out


CONFIGS = [
    ({"output_dim": 2, "spatial_scale": 0.5, "group_size": 2, "spatial_bins_x": 2, "spatial_bins_y": 3,
      "trans_std": 1.0, "part_size": 1, "mode": "bilinear_deformable"}, None),
    ({"output_dim": 4, "spatial_scale": 0.5, "group_size": 2, "spatial_bins_x": 2, "spatial_bins_y": 2,
      "trans_std": 0.2, "part_size": 2}, 2),
    ({"output_dim": 3, "spatial_scale": 1.0, "group_size": 3, "spatial_bins_x": 3, "spatial_bins_y": 1,
      "trans_std": 0.5, "part_size": 2}, 1),
]


@pytest.mark.parametrize(("attributes", "classes"), CONFIGS)
def test_matches_the_loop(attributes, classes):
    rng = np.random.default_rng(len(attributes) + (classes or 0))
    g = attributes["group_size"]
    x = rng.uniform(-4, 4, (2, attributes["output_dim"] * g * g, 9, 11))
    rois = np.array([[0, 2, 3, 15, 12], [1, -3, 0, 23, 19], [1, 7.5, 5.25, 11, 9], [0, 6, 5, 2, 1], [1, 3, 3, 3, 3]],
                    float)
    offsets = None
    if classes:
        offsets = rng.uniform(-1, 1, (len(rois), 2 * classes, attributes["part_size"], attributes["part_size"]))
    inputs = [x, rois] + ([offsets] if offsets is not None else [])
    found = reference.evaluate("openvino", "DeformablePSROIPooling", 1, inputs, attributes)
    got, mask = found.outputs[0], found.unspecified[0]
    want = _loop(x, rois, offsets, attributes)
    compared = np.ones(got.shape, bool) if mask is None else ~mask
    assert compared.mean() > 0.8  # few bins have a sample within rounding of a skip bound
    np.testing.assert_allclose(got[compared], want[compared], rtol=1e-12, atol=1e-12)
    (mag,) = reference.magnitude("openvino", "DeformablePSROIPooling", 1, inputs, attributes)
    assert (mag[compared] * 9 >= np.abs(want[compared])).all()  # (K + 2) · magnitude holds the samples' sum


def test_offsets_move_bins_by_trans_std_times_the_box():
    """An offset of 1 with trans_std 0.5 moves a bin by half the box: the value is the unmoved pooling of the map
    shifted by that much, so a factor of 2 in either breaks it."""
    x = np.tile(np.arange(16.0), (4, 16, 1))[None]  # value = column index
    rois = np.array([[0, 4, 4, 7, 7]], float)  # start 3.5, extent 4
    attributes = {"output_dim": 1, "spatial_scale": 1.0, "group_size": 2, "trans_std": 0.5, "part_size": 1}
    still = reference.evaluate("openvino", "DeformablePSROIPooling", 1, [x, rois], attributes).outputs[0]
    offsets = np.zeros((1, 2, 1, 1))
    offsets[0, 0] = 1.0
    moved = reference.evaluate("openvino", "DeformablePSROIPooling", 1, [x, rois, offsets], attributes).outputs[0]
    np.testing.assert_allclose(moved - still, 2.0)  # 1 * 0.5 * extent 4


@pytest.mark.parametrize(("shapes", "attributes"), [
    ([(1, 10, 6, 6), (1, 5)], {"output_dim": 2, "spatial_scale": 1.0, "group_size": 2}),
    ([(1, 4, 6, 6), (1, 5), (1, 2, 3, 3)], {"output_dim": 1, "spatial_scale": 1.0, "group_size": 2, "part_size": 2}),
    ([(1, 4, 6, 6), (1, 4)], {"output_dim": 1, "spatial_scale": 1.0, "group_size": 2}),
    ([(1, 4, 6, 6), (1, 5)], {"output_dim": 1, "spatial_scale": 1.0, "group_size": 2, "mode": "bilinear"}),
    ([(1, 4, 6, 6), (1, 5)], {"spatial_scale": 1.0, "group_size": 2}),
    ([(1, 8, 6, 6), (1, 5), (1, 6, 1, 1)], {"output_dim": 2, "spatial_scale": 1.0, "group_size": 2}),
])
def test_what_the_text_forbids(shapes, attributes):
    with pytest.raises(reference.SpecViolation):
        reference.output_shapes("openvino", "DeformablePSROIPooling", 1, shapes, attributes)
