"""ONNX MaxRoiPool: the reference against the naive loop oracle (naive_maxroipool.py) over random regions, the
rounding rules pinned on small cases (what onnxruntime and OpenVINO return, docs/spec-notes.md), and the inputs the
text forbids."""

from __future__ import annotations

import functools
import warnings

import ml_dtypes
import naive_maxroipool as naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nan_equal import elementwise_same, same

import conformance_reference as reference
from conformance.dtypes import np_dtype
from conformance_reference import onnx_maxroipool

OP = ("ai.onnx", "MaxRoiPool")
SETTINGS = settings(derandomize=True, max_examples=120, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def configurations(draw: st.DrawFn):
    version = draw(st.sampled_from(onnx_maxroipool.VERSIONS))
    dtype = np_dtype(draw(st.sampled_from(onnx_maxroipool.SCHEMA.supported_dtypes(version))))
    n, c, h, w = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.integers(1, 6)), draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = (rng.integers(-50, 50, size=(n, c, h, w)) / 4).astype(dtype)
    if draw(st.integers(0, 5)) == 0:
        x[tuple(rng.integers(0, s) for s in x.shape)] = np.nan
    scale = draw(st.sampled_from([1.0, 0.5, 0.25, 2.0, 1 / 3, 0.0625, 0.7]))
    k = draw(st.integers(0, 3))
    batch = rng.integers(0, n, size=(k, 1))
    # corners in input coordinates, on a grid of quarters so that halves after scaling (rounding ties) occur
    corners = rng.integers(-8, 4 * (max(h, w) + 2), size=(k, 4)) / 4 / scale
    if draw(st.booleans()):  # mostly well-formed boxes
        corners[:, [0, 2]] = np.sort(corners[:, [0, 2]], axis=1)
        corners[:, [1, 3]] = np.sort(corners[:, [1, 3]], axis=1)
    rois = np.concatenate([batch, corners], axis=1).astype(dtype)
    pooled = [draw(st.integers(1, 7)), draw(st.integers(1, 7))]
    attrs: dict = {"pooled_shape": pooled}
    if scale != 1.0 or draw(st.booleans()):
        attrs["spatial_scale"] = scale
    return version, x, rois, attrs


@SETTINGS
@given(config=configurations())
def test_against_the_loop_oracle(config) -> None:
    version, x, rois, attrs = config
    want = naive.maxroipool(x, rois, attrs)
    got = reference.readings(*OP, version, [x, rois], attrs)
    assert list(got) == list(want)
    for name, (y, mask) in want.items():
        (out,), (unspec,) = got[name].outputs, got[name].unspecified
        assert out.dtype == x.dtype and out.shape == y.shape, name
        np.testing.assert_array_equal(np.zeros(y.shape, bool) if unspec is None else unspec, mask, err_msg=name)
        assert same(out[~mask], y[~mask]), name
    first = want["exact"][0]
    mask = np.zeros(first.shape, bool)
    for y, m in want.values():
        mask |= m | ~elementwise_same(y, first)
    merged = reference.evaluate(*OP, version, [x, rois], attrs)
    np.testing.assert_array_equal(np.zeros(first.shape, bool) if merged.unspecified[0] is None
                                  else merged.unspecified[0], mask)
    assert same(merged.outputs[0][~mask], first[~mask])
    assert reference.output_shapes(*OP, version, [x.shape, rois.shape], attrs) == [first.shape]
    assert reference.window_elements(*OP, version, [x.shape, rois.shape], attrs) == 1


def _run(x, rois, attrs, version: int = 22) -> reference.Result:
    return reference.evaluate(*OP, version, [x, np.asarray(rois, x.dtype)], attrs)


GRID = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)
ROW = np.arange(1, 9, dtype=np.float32).reshape(1, 1, 1, 8)


def test_whole_image_caffe_bins() -> None:
    # region 4x4 in 2x2 bins of 2x2 pixels (onnxruntime and OpenVINO: [[6, 8], [14, 16]])
    res = _run(GRID, [[0, 0, 0, 3, 3]], {"pooled_shape": [2, 2]})
    assert res.unspecified[0] is None and res.outputs[0].tolist() == [[[[6, 8], [14, 16]]]]
    # negative values: the maximum, not a seed (onnxruntime and OpenVINO: [[-1, -3], [-9, -11]])
    res = _run(-GRID, [[0, 0, 0, 3, 3]], {"pooled_shape": [2, 2]})
    assert res.outputs[0].tolist() == [[[[-1, -3], [-9, -11]]]]


def test_inclusive_corners_and_overlapping_bins() -> None:
    # x 0..2 is 3 pixels; 2 bins: [0, 2) and [1, 3) overlap at pixel 1
    res = _run(ROW, [[0, 0, 0, 2, 0]], {"pooled_shape": [1, 2]})
    assert res.outputs[0].ravel().tolist() == [2, 3]


def test_halves_round_away_from_zero() -> None:
    # 0.5..2.5 -> pixels 1..3 (half-even would give 0..2 -> max 3); onnxruntime and OpenVINO: 4
    assert _run(ROW, [[0, 0.5, 0, 2.5, 0]], {"pooled_shape": [1, 1]}).outputs[0].item() == 4
    # -0.5..0.4 -> pixels -1..0, bins [-1, 0) (outside: unspecified, the runtimes return 0) and [0, 1)
    res = _run(ROW, [[0, -0.5, 0, 0.4, 0]], {"pooled_shape": [1, 2]})
    assert res.unspecified[0].ravel().tolist() == [True, False] and res.outputs[0].ravel()[1] == 1


def test_float32_bins_are_a_reading() -> None:
    # 3 pixels in 21 bins: exact bin 20 is [2, 3); float32 21 * (3 / 21) = 3.0000002 makes it [2, 4)
    # (onnxruntime: 4; OpenVINO, exact integer bins: 3)
    found = reference.readings(*OP, 21, [ROW, np.array([[0, 0, 0, 2, 0]], np.float32)], {"pooled_shape": [1, 21]})
    assert found["exact"].outputs[0].ravel()[-1] == 3 and found["float32"].outputs[0].ravel()[-1] == 4
    res = _run(ROW, [[0, 0, 0, 2, 0]], {"pooled_shape": [1, 21]}, version=21)
    assert np.flatnonzero(res.unspecified[0]).tolist() == [20]


def test_spatial_scale_scales_the_corners() -> None:
    res = _run(GRID, [[0, 0, 0, 6, 6]], {"pooled_shape": [1, 1], "spatial_scale": 0.5})
    assert res.outputs[0].item() == 16  # corners 0..3
    res = _run(GRID, [[0, 0, 0, 2, 2]], {"pooled_shape": [1, 1], "spatial_scale": 0.5})
    assert res.outputs[0].item() == 6  # corners 0..1


def test_regions_outside_and_malformed_are_unspecified() -> None:
    res = _run(GRID, [[0, 10, 0, 12, 3]], {"pooled_shape": [1, 2]})  # entirely right of the image
    assert res.unspecified[0].all()
    res = _run(GRID, [[0, 2, 0, 6, 0]], {"pooled_shape": [1, 4]})  # columns 2..6: bins 2, 3 outside
    assert res.unspecified[0].ravel().tolist() == [False, False, True, True]
    assert res.outputs[0].ravel()[:2].tolist() == [4, 4]  # bins [2, 4) and [3, 5) (onnxruntime, OpenVINO: [4, 4, 0, 0])
    res = _run(GRID, [[0, 3, 0, 1, 3]], {"pooled_shape": [2, 2]})  # x2 < x1 (runtimes: a 1-pixel column)
    assert res.unspecified[0].all()


def test_nan_makes_its_bins_unspecified() -> None:
    x = GRID.copy()
    x[0, 0, 0, 0] = np.nan
    res = _run(x, [[0, 0, 0, 3, 3]], {"pooled_shape": [2, 2]})
    assert res.unspecified[0].ravel().tolist() == [True, False, False, False]
    assert res.outputs[0].ravel()[1:].tolist() == [8, 14, 16]


def test_batch_and_channels() -> None:
    x = np.stack([GRID[0], GRID[0] + 100, ]).repeat(2, axis=1)  # (2, 2, 4, 4)
    x[:, 1] *= -1
    res = _run(x, [[1, 0, 0, 1, 1], [0, 2, 2, 3, 3]], {"pooled_shape": [1, 1]})
    assert res.outputs[0].ravel().tolist() == [106, -101, 16, -11]


def test_no_rois() -> None:
    res = _run(GRID, np.zeros((0, 5)), {"pooled_shape": [2, 3]})
    assert res.outputs[0].shape == (0, 1, 2, 3)


def test_types_per_version() -> None:
    assert reference.supported_dtypes(*OP, 21) == ("float16", "float32", "float64")
    assert reference.supported_dtypes(*OP, 22) == ("bfloat16", "float16", "float32", "float64")
    x = GRID.astype(ml_dtypes.bfloat16)
    assert _run(x, [[0, 0, 0, 3, 3]], {"pooled_shape": [1, 1]}).outputs[0].item() == 16
    with pytest.raises(reference.SpecViolation):
        _run(x, [[0, 0, 0, 3, 3]], {"pooled_shape": [1, 1]}, version=1)


NEGATIVE = {
    "no pooled_shape": (GRID, [[0, 0, 0, 1, 1]], {}),
    "pooled_shape length": (GRID, [[0, 0, 0, 1, 1]], {"pooled_shape": [2]}),
    "pooled_shape 0": (GRID, [[0, 0, 0, 1, 1]], {"pooled_shape": [0, 2]}),
    "spatial_scale 0": (GRID, [[0, 0, 0, 1, 1]], {"pooled_shape": [1, 1], "spatial_scale": 0.0}),
    "spatial_scale < 0": (GRID, [[0, 0, 0, 1, 1]], {"pooled_shape": [1, 1], "spatial_scale": -1.0}),
    "spatial_scale inf": (GRID, [[0, 0, 0, 1, 1]], {"pooled_shape": [1, 1], "spatial_scale": float("inf")}),
    "unknown attribute": (GRID, [[0, 0, 0, 1, 1]], {"pooled_shape": [1, 1], "sampling_ratio": 2}),
    "batch_id N": (GRID, [[1, 0, 0, 1, 1]], {"pooled_shape": [1, 1]}),
    "batch_id -1": (GRID, [[-1, 0, 0, 1, 1]], {"pooled_shape": [1, 1]}),
    "batch_id 0.5": (GRID, [[0.5, 0, 0, 1, 1]], {"pooled_shape": [1, 1]}),
    "coordinate nan": (GRID, [[0, np.nan, 0, 1, 1]], {"pooled_shape": [1, 1]}),
    "coordinate inf": (GRID, [[0, 0, 0, np.inf, 1]], {"pooled_shape": [1, 1]}),
    "rois 4 columns": (GRID, [[0, 0, 1, 1]], {"pooled_shape": [1, 1]}),
    "X rank 3": (GRID[0], [[0, 0, 0, 1, 1]], {"pooled_shape": [1, 1]}),
    "X rank 5": (GRID[None], [[0, 0, 0, 1, 1]], {"pooled_shape": [1, 1]}),
}


@pytest.mark.parametrize("name", sorted(NEGATIVE))
def test_spec_violations(name: str) -> None:
    x, rois, attrs = NEGATIVE[name]
    with pytest.raises(reference.SpecViolation):
        _run(x, rois, attrs)


def test_rois_of_another_type_or_one_input() -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate(*OP, 22, [GRID, np.array([[0, 0, 0, 1, 1]], np.float64)], {"pooled_shape": [1, 1]})
    with pytest.raises(reference.SpecViolation):
        reference.evaluate(*OP, 22, [GRID], {"pooled_shape": [1, 1]})
    with pytest.raises(reference.SpecViolation):
        reference.output_shapes(*OP, 22, [(1, 1, 4, 4), (3, 4)], {"pooled_shape": [1, 1]})


@functools.cache
def _node_test_names() -> list[str]:
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        node_cases.collect_testcases(None)
    return [c.name for c in node_cases._NodeTestCases
            if c.model is not None and c.model.graph.node[0].op_type == "MaxRoiPool"]


def test_onnx_ships_no_maxroipool_node_test() -> None:
    # onnx 1.23.2 has neither a MaxRoiPool node test nor an onnx.reference kernel; a new one must be added here
    assert _node_test_names() == []
