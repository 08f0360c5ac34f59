"""OpenVINO Interpolate-1 (reference/_interpolate_1.py): the values its page fixes without a formula — the input back
at the same shape, a constant slice's constant — in every mode, everything else unspecified, the text's shapes and
what it forbids."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference

MODES = ("nearest", "linear", "cubic", "area")


def _interpolate(x, target, **attributes):
    attributes = {"axes": [2, 3], "mode": "linear", **attributes}
    return reference.evaluate("openvino", "Interpolate", 1, [x, np.array(target, np.int64)], attributes)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("align_corners", [False, True])
def test_the_same_shape_gives_the_input_back(mode, align_corners):
    x = np.random.default_rng(1).standard_normal((2, 3, 4, 5)).astype(np.float32)
    found = _interpolate(x, [4, 5], mode=mode, align_corners=align_corners)
    assert found.unspecified[0] is None
    np.testing.assert_array_equal(found.outputs[0], x)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", [[7, 9], [2, 3], [4, 11]])
def test_a_constant_slice_stays_its_constant_and_nothing_else_is_said(mode, target):
    x = np.random.default_rng(2).standard_normal((1, 3, 4, 5))
    x[0, 1] = 2.5  # one constant slice among random ones
    found = _interpolate(x, target, mode=mode)
    y, mask = found.outputs[0], found.unspecified[0]
    assert y.shape == (1, 3, *target)
    assert (y[0, 1] == 2.5).all() and not mask[0, 1].any()
    assert mask[0, 0].all() and mask[0, 2].all() and np.isnan(y[0, 0]).all()


def test_padding_or_a_non_finite_value_leaves_the_values_unspecified():
    x = np.full((1, 2, 3, 3), 4.0)
    assert _interpolate(x, [3, 3], pads_begin=[0, 0, 1, 0]).unspecified[0].all()
    x[0, 0, 1, 1] = np.inf
    mask = _interpolate(x, [3, 3]).unspecified[0]
    assert mask[0, 0].all() and not mask[0, 1].any()


def test_one_axis_and_the_shape_rules():
    x = np.array([[[[1.5, 1.5, 1.5], [-4.0, -4.0, -4.0]]]])
    found = _interpolate(x, [8], axes=[3], mode="nearest")
    np.testing.assert_array_equal(found.outputs[0][0, 0], [[1.5] * 8, [-4.0] * 8])
    shapes = reference.output_shapes("openvino", "Interpolate", 1, [(1, 2, 48, 80), (2,)],
                                     {"axes": [2, 3], "mode": "linear"}, {1: np.array([50, 60])})
    assert shapes == [(1, 2, 50, 60)]  # the page's example


@pytest.mark.parametrize(("attributes", "target", "dtype"), [
    ({"axes": [2, 2], "mode": "linear"}, [5, 5], np.float32),
    ({"axes": [2, 3], "mode": "linear"}, [5, 5, 5], np.float32),
    ({"axes": [2, 3], "mode": "linear_onnx"}, [5, 5], np.float32),
    ({"mode": "linear"}, [5, 5], np.float32),
    ({"axes": [2, 4], "mode": "linear"}, [5, 5], np.float32),
    ({"axes": [2, 3], "mode": "nearest"}, [4, 4], np.int32),
    ({"axes": [2, 3], "mode": "linear", "shape_calculation_mode": "sizes"}, [5, 5], np.float32),
])
def test_what_the_text_forbids(attributes, target, dtype):
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "Interpolate", 1, [np.ones((1, 1, 4, 4), dtype), np.array(target, np.int64)],
                           attributes)


def test_window_elements_by_mode():
    def k(mode, target, antialias=False):
        return reference.window_elements("openvino", "Interpolate", 1, [(1, 1, 8, 8), (2,)],
                                         {"axes": [2, 3], "mode": mode, "antialias": antialias},
                                         {1: np.array(target)})
    assert (k("nearest", [4, 4]), k("linear", [16, 16]), k("cubic", [16, 16])) == (1, 4, 16)
    assert k("area", [4, 4]) == (2 + 1) ** 2  # an output pixel covers 2 input pixels per axis, plus one
