"""OpenVINO's proposal and detection-output ops (reference/openvino_experimental_detectron_*.py, ...) against loops
written from the pages' words: per cell and prior; the unspecified elements where the text leaves a choice open;
planted errors (offset, stride) the loops catch."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation

GRID = "ExperimentalDetectronPriorGridGenerator"


def _run(op: str, version: int, inputs: list[np.ndarray], attributes: dict) -> tuple[list, list]:
    result = reference.evaluate("openvino", op, version, inputs, attributes)
    return result.outputs, result.unspecified


def _loop_grid(priors, rows, cols, step_x, step_y, mutate=None):
    """Row after row, cell after cell, prior after prior: the prior's corners plus the cell centre's offsets."""
    offset = 0.0 if mutate == "offset" else 0.5
    step_x = step_x * (2 if mutate == "stride" else 1)
    found = []
    for y in range(rows):
        for x in range(cols):
            for p in range(priors.shape[0]):
                sx, sy = (x + offset) * step_x, (y + offset) * step_y
                x0, y0, x1, y1 = (float(v) for v in priors[p])
                found.append([x0 + sx, y0 + sy, x1 + sx, y1 + sy])
    return np.array(found)


def _grid_inputs(p, h, w, ih, iw, c=2, seed=0):
    rng = np.random.default_rng(seed)
    priors = rng.uniform(-20, 20, (p, 4)).astype(np.float32)
    return [priors, np.zeros((1, c, h, w), np.float32), np.zeros((1, c, ih, iw), np.float32)]


@pytest.mark.parametrize("flatten", [True, False])
@pytest.mark.parametrize("strides", [(0.0, 0.0), (8.0, 4.0)])
def test_prior_grid_is_the_loop(flatten, strides):
    inputs = _grid_inputs(3, 4, 5, 36, 70)
    attrs = {"flatten": flatten, "stride_x": strides[0], "stride_y": strides[1]}
    (out,), (unspecified,) = _run(GRID, 6, inputs, attrs)
    step_x, step_y = strides[0] or 70 / 5, strides[1] or 36 / 4
    want = _loop_grid(inputs[0], 4, 5, step_x, step_y)
    assert out.shape == ((60, 4) if flatten else (4, 5, 3, 4))
    assert not unspecified.any()
    np.testing.assert_allclose(out.reshape(-1, 4).astype(np.float64), want, rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("mutate", ["offset", "stride"])
def test_planted_errors_fail(mutate):
    inputs = _grid_inputs(2, 3, 3, 24, 24, seed=1)
    (out,), _ = _run(GRID, 6, inputs, {"stride_x": 8.0, "stride_y": 8.0})
    wrong = _loop_grid(inputs[0], 3, 3, 8.0, 8.0, mutate=mutate)
    assert not np.allclose(out.astype(np.float64), wrong, rtol=1e-6, atol=1e-5)


def test_the_literal_case():
    priors = np.array([[-1, -2, 3, 4]], np.float32)
    (out,), _ = _run(GRID, 6, [priors, np.zeros((1, 2, 2, 3), np.float32), np.zeros((1, 2, 16, 24), np.float32)],
                     {})
    assert out.tolist() == [[3, 2, 7, 8], [11, 2, 15, 8], [19, 2, 23, 8], [3, 10, 7, 16], [11, 10, 15, 16],
                            [19, 10, 23, 16]]


def test_a_smaller_grid_is_specified_only_where_both_layouts_agree():
    """h x w < the map: the loop's boxes packed first or placed at their cells; elsewhere nothing is defined."""
    inputs = _grid_inputs(2, 4, 5, 64, 80, seed=2)
    (out,), (unspecified,) = _run(GRID, 6, inputs, {"flatten": False, "h": 2, "w": 5, "stride_x": 16.0,
                                                    "stride_y": 16.0})
    want = _loop_grid(inputs[0], 2, 5, 16.0, 16.0).reshape(2, 5, 2, 4)
    # w equals the map's width: both layouts put the 2 x 5 grid in the first two rows; the rest is undefined
    assert not unspecified[:2].any() and unspecified[2:].all()
    np.testing.assert_allclose(out[:2].astype(np.float64), want, rtol=1e-6, atol=1e-5)
    (out,), (unspecified,) = _run(GRID, 6, inputs, {"flatten": False, "h": 2, "w": 3, "stride_x": 16.0,
                                                    "stride_y": 16.0})
    # cells (0, 0..2) stand first either way; (0, 3..4) hold grid cells (1, 0..1) packed, nothing placed
    assert not unspecified[0, :3].any() and unspecified[0, 3:].all() and unspecified[2:].all()
    want = _loop_grid(inputs[0], 2, 3, 16.0, 16.0).reshape(2, 3, 2, 4)
    np.testing.assert_allclose(out[0, :3].astype(np.float64), want[0], rtol=1e-6, atol=1e-5)


def test_layer_height_is_open_only_without_a_stride():
    inputs = _grid_inputs(1, 5, 4, 40, 48, seed=3)
    (out,), (unspecified,) = _run(GRID, 6, inputs, {"flatten": False, "h": 3})
    # the columns' step (48 / 4) is defined, the rows' is 40 / 5 or 40 / 3: y coordinates of row >= 0 differ
    assert not unspecified[0, :, :, 0::2].any()
    assert unspecified[0, :, :, 1::2].all()
    np.testing.assert_allclose(out[0, :, 0, 0].astype(np.float64), inputs[0][0, 0] + (np.arange(4) + 0.5) * 12,
                               rtol=1e-6)


@pytest.mark.parametrize("attrs,shapes", [
    ({"h": 5}, ((1, 4), (1, 1, 4, 4), (1, 1, 32, 32))),
    ({}, ((1, 4), (1, 2, 4, 4), (1, 3, 32, 32))),
    ({}, ((1, 5), (1, 1, 4, 4), (1, 1, 32, 32))),
    ({"stride_x": -1.0}, ((1, 4), (1, 1, 4, 4), (1, 1, 32, 32))),
])
def test_what_the_text_forbids(attrs, shapes):
    with pytest.raises(SpecViolation):
        _run(GRID, 6, [np.zeros(s, np.float32) for s in shapes], attrs)


FEATURES = "ExperimentalDetectronROIFeatureExtractor"


def _bilinear(plane, y, x):
    h, w = plane.shape
    if y < 0 or x < 0 or y > h - 1 or x > w - 1:
        return np.nan  # off the map: no text defines the sample (ROIAlign-3's reference leaves it open)
    top, left = int(np.floor(y)), int(np.floor(x))
    total = 0.0
    for r in (top, top + 1):
        for c in (left, left + 1):
            weight = (1 - abs(y - r)) * (1 - abs(x - c))
            if weight > 0:
                total += weight * float(plane[r, c])
    return total


def _loop_features(rois, layers, scales, size, ratio, mutate=None):
    """Per ROI: its level by the page's formula, then ROIAlign-3 avg - bins, cell-centre samples, the mean."""
    out = np.full((len(rois), layers[0].shape[1], size, size), np.nan)
    for i, (x1, y1, x2, y2) in enumerate(rois.astype(np.float64)):
        j = int(np.floor(2 + np.log2(np.sqrt((x2 - x1) * (y2 - y1)) / 224))) + (1 if mutate == "level" else 0)
        if not 0 <= j < len(layers):
            continue
        scale = float(np.float32(1.0 / scales[j]))  # an IR float attribute of ROIAlign
        bw, bh = max((x2 - x1) * scale, 1.0) / size, max((y2 - y1) * scale, 1.0) / size
        gx, gy = ratio or int(np.ceil(bw)), ratio or int(np.ceil(bh))
        for c in range(out.shape[1]):
            for py in range(size):
                for px in range(size):
                    total = 0.0
                    for iy in range(gy):
                        for ix in range(gx):
                            total += _bilinear(layers[j][0, c], y1 * scale + py * bh + (iy + 0.5) * bh / gy,
                                               x1 * scale + px * bw + (ix + 0.5) * bw / gx)
                    out[i, c, py, px] = total / (gx * gy)
    return out


def _features_inputs(seed=0):
    rng = np.random.default_rng(seed)
    rois = np.array([[10, 10, 90, 90], [20, 30, 170, 180], [5, 7, 230, 232], [5, 5, 20, 20]], np.float32)
    return [rois] + [rng.standard_normal((1, 3, n, n)).astype(np.float32) for n in (60, 30, 15)]


@pytest.mark.parametrize("ratio", [0, 2])
def test_features_are_the_loop(ratio):
    inputs = _features_inputs()
    attrs = {"output_size": 2, "sampling_ratio": ratio, "pyramid_scales": [4, 8, 16]}
    (features, rois), (unspecified, rois_free) = _run(FEATURES, 6, inputs, attrs)
    want = _loop_features(inputs[0], inputs[1:], [4, 8, 16], 2, ratio)
    assert features.shape == (4, 3, 2, 2) and rois.shape == (4, 4) and rois_free.all()
    # the last ROI (sqrt(area) 15) maps to j = -2: no layer, unspecified; so is a bin with a sample off its layer
    assert unspecified[3].all()
    np.testing.assert_array_equal(unspecified, np.isnan(want))
    assert (~unspecified[:3]).sum() >= 20
    np.testing.assert_allclose(features[~unspecified].astype(np.float64), want[~unspecified], rtol=1e-5, atol=1e-5)


def test_a_planted_level_error_fails():
    inputs = _features_inputs(1)
    (features, _), _ = _run(FEATURES, 6, inputs, {"output_size": 2, "sampling_ratio": 2, "pyramid_scales": [4, 8, 16]})
    wrong = _loop_features(inputs[0], inputs[1:], [4, 8, 16], 2, 2, mutate="level")
    assert not np.allclose(features[:2].astype(np.float64), wrong[:2], rtol=1e-5, atol=1e-5)


def test_levels_of_the_formula():
    from conformance_reference import openvino_experimental_detectron_roi_feature_extractor as module

    assert module.level(np.array([0, 0, 224, 224]))[0] == 2  # sqrt(area) = 224: floor(2 + 0)
    assert module.level(np.array([0, 0, 224, 224]))[1] is False  # on the boundary: the floor flips within rounding
    assert module.level(np.array([0, 0, 100, 100])) == (0, True)
    assert module.level(np.array([0, 0, 447, 447])) == (2, True)


def test_aligned_true_leaves_the_features_open():
    inputs = _features_inputs()
    _, (unspecified, _) = _run(FEATURES, 6, inputs, {"output_size": 2, "sampling_ratio": 2,
                                                      "pyramid_scales": [4, 8, 16], "aligned": True})
    assert unspecified.all()


@pytest.mark.parametrize("attrs,shapes", [
    ({"output_size": 2, "sampling_ratio": 2, "pyramid_scales": [4]}, ((2, 5), (1, 2, 16, 16))),
    ({"output_size": 2, "sampling_ratio": 2, "pyramid_scales": [4, 8]}, ((1, 4), (1, 2, 32, 32), (1, 3, 16, 16))),
    ({"output_size": 2, "sampling_ratio": 2, "pyramid_scales": [4]}, ((1, 4), (1, 2, 32, 32), (1, 2, 16, 16))),
    ({"sampling_ratio": 2, "pyramid_scales": [4]}, ((1, 4), (1, 2, 32, 32))),
])
def test_what_the_roi_feature_text_forbids(attrs, shapes):
    with pytest.raises(SpecViolation):
        _run(FEATURES, 6, [np.ones(s, np.float32) for s in shapes], attrs)


PROPOSAL = {"base_size": 16, "pre_nms_topn": 20, "post_nms_topn": 6, "nms_thresh": 0.7, "feat_stride": 16,
            "min_size": 4, "ratio": [0.5, 1.0, 2.0], "scale": [2.0, 4.0]}


@pytest.mark.parametrize("version", [1, 4])
def test_proposal_shapes_and_nothing_else(version):
    """The texts define no value: N * post_nms_topn rows of 5 (and -4's probabilities), every element open."""
    inputs = [np.full((2, 12, 3, 4), 0.5, np.float32), np.zeros((2, 24, 3, 4), np.float32),
              np.array([48, 64, 1], np.float32)]
    outs, masks = _run("Proposal", version, inputs, PROPOSAL)
    assert [o.shape for o in outs] == ([(12, 5), (12,)] if version == 4 else [(12, 5)])
    assert all(m.all() for m in masks)


@pytest.mark.parametrize("change", [{"base_size": 0}, {"framework": "caffe2"}, {"nms_thresh": 0.0}, "channels",
                                    "image"])
def test_what_the_proposal_text_forbids(change):
    attrs = dict(PROPOSAL, **change) if isinstance(change, dict) else PROPOSAL
    probs = (1, 8 if change == "channels" else 12, 3, 3)
    inputs = [np.ones(probs, np.float32), np.ones((1, 2 * probs[1], 3, 3), np.float32),
              np.ones(2 if change == "image" else 3, np.float32)]
    with pytest.raises(SpecViolation):
        _run("Proposal", 4, inputs, attrs)


SINGLE = "ExperimentalDetectronGenerateProposalsSingleImage"


def _single_inputs(c=2, h=4, w=4, anchors=None):
    return [np.array([64, 64, 1], np.float32), np.ones((anchors if anchors is not None else h * w * c, 4), np.float32),
            np.zeros((4 * c, h, w), np.float32), np.full((c, h, w), 0.5, np.float32)]


def test_no_proposal_is_the_zero_fill():
    outs, masks = _run(SINGLE, 6, _single_inputs(), {"min_size": 0.0, "nms_threshold": 0.7, "pre_nms_count": 0,
                                                     "post_nms_count": 5})
    assert [o.shape for o in outs] == [(5, 4), (5,)] and all(m is None for m in masks)
    assert all((o == 0).all() for o in outs)


def test_proposals_are_open():
    outs, masks = _run(SINGLE, 6, _single_inputs(), {"min_size": 0.0, "nms_threshold": 0.7, "pre_nms_count": 10,
                                                     "post_nms_count": 5})
    assert [o.shape for o in outs] == [(5, 4), (5,)] and all(m.all() for m in masks)


@pytest.mark.parametrize("inputs,attrs", [
    (_single_inputs(anchors=30), {}), (_single_inputs()[:3], {}),
    (_single_inputs(), {"pre_nms_count": -1}), (_single_inputs(), {"nms_threshold": -0.1}),
])
def test_what_the_single_image_text_forbids(inputs, attrs):
    base = {"min_size": 0.0, "nms_threshold": 0.7, "pre_nms_count": 10, "post_nms_count": 5}
    with pytest.raises(SpecViolation):
        _run(SINGLE, 6, inputs, dict(base, **attrs))


@pytest.mark.parametrize("version", [1, 8])
@pytest.mark.parametrize("keep,top_k,rows", [([5], 3, 2 * 5), ([-1], 2, 2 * 2 * 3), ([-1], -1, 2 * 3 * 4)])
def test_detection_output_rows_by_the_three_rules(version, keep, top_k, rows):
    """4 prior boxes (normalized: 16 = 4 * 4), 3 classes, two images: the text's three shape rules, nothing else."""
    attrs = {"keep_top_k": keep, "top_k": top_k, "nms_threshold": 0.5, "normalized": True}
    if version == 1:
        attrs["num_classes"] = 3
    inputs = [np.zeros((2, 16), np.float32), np.zeros((2, 12), np.float32), np.zeros((1, 2, 16), np.float32)]
    (out,), (mask,) = _run("DetectionOutput", version, inputs, attrs)
    assert out.shape == (1, 1, rows, 7) and mask.all()


def test_detection_output_prior_size_follows_normalized():
    attrs = {"keep_top_k": [-1], "nms_threshold": 0.5, "normalized": False, "num_classes": 3}
    inputs = [np.zeros((1, 16), np.float32), np.zeros((1, 12), np.float32), np.zeros((1, 2, 20), np.float32)]
    (out,), _ = _run("DetectionOutput", 1, inputs, attrs)
    assert out.shape == (1, 1, 12, 7)
    with pytest.raises(SpecViolation):  # 16 is no multiple of 5
        _run("DetectionOutput", 1, inputs[:2] + [np.zeros((1, 2, 16), np.float32)], attrs)
