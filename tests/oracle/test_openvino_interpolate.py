"""OpenVINO Interpolate-4/-11 (reference/openvino_interpolate.py, reference/_interpolate.py) against the page's own
Python (tests/oracle/interpolate_text.py: its loops over every output element, verbatim but two marked edits), over
every mode, coordinate transformation, nearest mode, antialias, pads and both shape calculation modes; the readings
where the text disagrees with itself; the bound's parts; planted factor-2 errors caught."""

from __future__ import annotations

import itertools

import interpolate_text as text
import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import _interpolate

RNG = np.random.default_rng(4)
COORDS = _interpolate.COORDINATE_MODES


def _ours(version, x, sizes, scales, axes, attributes):
    if version >= 11:
        given = sizes if attributes["shape_calculation_mode"] == "sizes" else scales
        inputs = [x, given] + ([np.array(axes)] if axes is not None else [])
    else:
        inputs = [x, sizes, scales] + ([np.array(axes)] if axes is not None else [])
    return reference.evaluate("openvino", "Interpolate", version, inputs, attributes)


def _texts(x, sizes, scales, axes, attributes):
    calc = text.InterpolateCalculation(dict(attributes))
    return np.asarray(calc(x.astype(np.float64), np.asarray(sizes), np.asarray(scales, np.float64),
                           list(range(x.ndim)) if axes is None else list(axes)))


CONFIGS = [  # (shape, sizes, scales, axes, attributes)
    *[((1, 2, 4, 5), [7, 3], [1.75, 0.6], [2, 3], {"mode": "linear", "coordinate_transformation_mode": m})
      for m in COORDS],
    *[((1, 1, 5, 6), [9, 4], [1.8, 2 / 3], [2, 3], {"mode": "cubic", "coordinate_transformation_mode": m})
      for m in COORDS],
    ((2, 6, 3), [11], [11 / 6], [1], {"mode": "cubic", "cube_coeff": -0.5}),
    ((1, 2, 3, 5), [6, 4], [2.0, 0.8], [2, 3], {"mode": "linear_onnx"}),
    ((3, 5), [6, 2], [2.0, 0.4], [0, 1], {"mode": "linear_onnx", "coordinate_transformation_mode": "align_corners"}),
    ((1, 1, 3, 4, 2), [5, 2, 3], [5 / 3, 0.5, 1.5], [2, 3, 4], {"mode": "linear_onnx"}),
    ((3, 4, 2), [2, 6, 3], [2 / 3, 1.5, 1.5], [0, 1, 2], {"mode": "linear_onnx", "coordinate_transformation_mode":
                                                          "asymmetric"}),
    ((1, 1, 8, 12), [4, 3], [0.5, 0.25], [2, 3], {"mode": "linear", "antialias": True}),
    ((1, 1, 9, 7), [4, 14], [4 / 9, 2.0], [2, 3], {"mode": "linear", "antialias": True}),
    *[((1, 2, 5, 7), [10, 4], [2.0, 4 / 7], [2, 3], {"mode": "nearest", "nearest_mode": n,
                                                     "coordinate_transformation_mode": m})
      for n, m in itertools.product(_interpolate.NEAREST_MODES, ("asymmetric", "half_pixel", "align_corners"))],
]


def check(version: int = 4, configs=CONFIGS) -> None:
    for shape, sizes, scales, axes, extra in configs:
        x = RNG.uniform(-4, 4, shape).astype(np.float32)
        attributes = {"shape_calculation_mode": "sizes", **extra}
        result = _ours(version, x, np.array(sizes, np.int64), np.array(scales, np.float32), axes, attributes)
        want = _texts(x, sizes, scales, axes, attributes)
        got = result.outputs[0].astype(np.float64)
        keep = ~result.unspecified[0] if result.unspecified[0] is not None else np.ones(got.shape, bool)
        assert got.shape == want.shape, (extra, got.shape, want.shape)
        np.testing.assert_allclose(got[keep], want[keep], rtol=3e-7, atol=3e-6, err_msg=str(extra))


@pytest.mark.parametrize("version", [4, 11])
def test_matches_the_pages_python(version) -> None:
    check(version)


def test_scales_mode_and_pads_match_the_pages_python() -> None:
    x = RNG.uniform(-4, 4, (1, 1, 4, 3)).astype(np.float32)
    attributes = {"mode": "linear", "shape_calculation_mode": "scales", "pads_begin": [0, 0, 1, 0],
                  "pads_end": [0, 0, 1, 2]}
    scales = np.array([1.5, 1.25], np.float32)
    got = _ours(4, x, np.array([9, 6], np.int64), scales, [2, 3], attributes).outputs[0]
    text_attributes = {**attributes, "pads_begin": [0, 0, 1, 0], "pads_end": [0, 0, 1, 2]}
    want = _texts(x, [9, 6], scales, [2, 3], text_attributes)
    assert got.shape == (1, 1, 9, 6)
    np.testing.assert_allclose(got, want, rtol=3e-7, atol=3e-6)


def test_where_the_text_disagrees_with_itself() -> None:
    # round_prefer_ceil: "round half up" in words, round() (half to even) in code: 2.5 is unspecified
    c = np.array([0.5, 1.5, 2.5, 2.4])
    index, differ = _interpolate.nearest("round_prefer_ceil", c, False)
    np.testing.assert_array_equal(index, [1, 2, 3, 2])
    np.testing.assert_array_equal(differ, [True, False, True, False])
    # nearest leaves the axes it does not interpolate (the words); the code moves them with tf_half_pixel_for_nn
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    attributes = {"mode": "nearest", "shape_calculation_mode": "sizes", "nearest_mode": "ceil",
                  "coordinate_transformation_mode": "tf_half_pixel_for_nn"}
    ours = _ours(4, x, np.array([3]), np.array([1.0], np.float32), [1], attributes).outputs[0]
    np.testing.assert_array_equal(ours[:, 0], [1, 4])  # row 0 stays row 0
    assert _texts(x, [3], [1.0], [1], attributes)[0, 0] == 4  # the code reads row 1 for row 0


def test_k_and_the_bound_of_a_float32_kernel() -> None:
    x = RNG.uniform(-4, 4, (1, 1, 6, 6)).astype(np.float32)
    for mode, k in (("nearest", 1), ("linear", 4), ("linear_onnx", 4), ("cubic", 16)):
        attributes = {"mode": mode, "shape_calculation_mode": "sizes"}
        inputs = [x, np.array([9, 4]), np.array([1.5, 2 / 3], np.float32), np.array([2, 3])]
        assert reference.window_elements("openvino", "Interpolate", 4, [i.shape for i in inputs], attributes,
                                         {1: inputs[1], 3: inputs[3]}) == k
        expected = reference.evaluate("openvino", "Interpolate", 4, inputs, attributes).outputs[0].astype(np.float64)
        m = reference.magnitude("openvino", "Interpolate", 4, inputs, attributes)[0]
        allowed = (k + 2) * 2.0 ** -24 * m + np.spacing(np.abs(expected.astype(np.float32))).astype(np.float64)
        # the text's computation in float32 (coordinates, weights and sums) is inside the bound
        calc = text.InterpolateCalculation(dict(attributes))
        computed = np.asarray(calc(x, np.array([9, 4]), np.array([1.5, 2 / 3], np.float32), [2, 3]), np.float64)
        assert (np.abs(computed - expected) <= allowed).all(), mode
        if mode != "nearest":
            assert (np.abs(1.01 * computed - expected) > allowed).any(), mode


def test_what_the_text_forbids() -> None:
    x = np.ones((1, 2, 4, 4), np.float32)
    sizes, scales = np.array([4, 8]), np.array([1.0, 2.0], np.float32)
    for attributes, axes in (({"mode": "linear_onnx"}, [1, 3]), ({"mode": "linear"}, [3, 3]),
                             ({"mode": "linear", "pads_begin": [0, 0, -1, 0]}, [2, 3]),
                             ({"mode": "bilinear_pillow"}, [2, 3])):
        with pytest.raises(reference.SpecViolation):
            _ours(4, x, sizes, scales, axes, {"shape_calculation_mode": "sizes", **attributes})
    with pytest.raises(reference.SpecViolation):
        _ours(11, x, sizes, np.array([-1.0, 2.0], np.float32), [2, 3],
              {"mode": "linear", "shape_calculation_mode": "scales"})
    pillow = _ours(11, x, np.array([8, 2]), scales, [2, 3], {"mode": "bicubic_pillow",
                                                             "shape_calculation_mode": "sizes"})
    assert pillow.outputs[0].shape == (1, 2, 8, 2) and pillow.unspecified[0].all()


def test_a_planted_factor_two_is_caught(monkeypatch) -> None:
    check(4, CONFIGS[:1])
    cubic = _interpolate.cubic_coefficients
    monkeypatch.setattr(_interpolate, "cubic_coefficients", lambda s, a: 2 * cubic(s, a))
    with pytest.raises(AssertionError):
        check(4, CONFIGS[5:6])
    monkeypatch.undo()
    coordinate = _interpolate.coordinate
    monkeypatch.setattr(_interpolate, "coordinate", lambda *a: 2 * coordinate(*a))
    with pytest.raises(AssertionError):
        check(4, CONFIGS[:1])
