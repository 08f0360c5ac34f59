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
