"""elementwise.py's bitwise lines and parametric.py: the lowered models of OpenVINO's bitwise ops and of its
activations with input parameters (HardSigmoid, Selu, Swish, PReLU), evaluated by onnx's evaluator and judged
against our OpenVINO reference (lowering_check.py); wrong equivalences fail the same check, refusals name the
difference."""

from __future__ import annotations

import pytest
from lowering_check import FLOATS, SIGNED, UNSIGNED, instance, uniform, verdict

from conformance.backends.models.lowering import lower
from conformance.backends.models.lowering.nodes import Recipe, lowering, same

SHAPES = [("numpy", [2, 1, 3], [4, 1]), ("none", [2, 3], [2, 3]), ("pdpd", [2, 3, 4, 5], [4, 1])]


@pytest.mark.parametrize("op", ["BitwiseAnd", "BitwiseOr", "BitwiseXor"])
def test_bitwise_lowerings_compute_the_openvino_reference(op):
    for mode, a, b in SHAPES:
        for dtype in SIGNED + UNSIGNED + ["bool"]:
            low = 0 if dtype.startswith("u") else -100
            case = instance(op, 13, {"auto_broadcast": mode}, {"a": uniform(a, low, 100, 3),
                                                               "b": uniform(b, low, 100, 4)}, dtype)
            assert verdict(case, lower(case)) == "", (mode, dtype)
    for dtype in SIGNED + UNSIGNED + ["bool"]:
        case = instance("BitwiseNot", 13, {}, {"a": uniform([3, 4], 0 if dtype.startswith("u") else -9, 9)}, dtype)
        assert verdict(case, lower(case)) == "", dtype


def test_shifts_compute_the_openvino_reference():
    """Counts within the width, negative values shifted right (arithmetic), unsigned left shifts wrapping."""
    for direction in ("BitwiseLeftShift", "BitwiseRightShift"):
        for dtype in ("uint8", "uint32", "int8", "int32"):
            values = [1, 2, 100, 7] if dtype.startswith("u") else [1, -2, 100, -7]
            pair = {"a": {"shape": [4], "data": values}, "b": {"shape": [4], "data": [0, 1, 3, 2]}}
            case = instance(direction, 15, {}, pair, dtype)
            assert verdict(case, lower(case)) == "", (direction, dtype)


def test_parametric_activations_compute_the_openvino_reference():
    x = uniform([3, 4, 5], -4, 4)
    for dtype in FLOATS:
        hard = instance("HardSigmoid", 1, {}, {"data": x, "alpha": {"shape": [], "data": [0.25]},
                                               "beta": {"shape": [], "data": [0.5]}}, dtype)
        assert verdict(hard, lower(hard)) == "", dtype
        selu = instance("Selu", 1, {}, {"data": x, "alpha": {"shape": [1], "data": [1.5]},
                                        "lambda": {"shape": [1], "data": [1.0625]}}, dtype)
        assert verdict(selu, lower(selu)) == "", dtype
        for inputs in ({"data": x}, {"data": x, "beta": {"shape": [], "data": [0.75]}}):
            swish = instance("Swish", 4, {}, inputs, dtype)
            assert verdict(swish, lower(swish)) == "", (dtype, list(inputs))
        for slope in ([4], [5], [4, 1], [3, 4, 5]):  # per channel (axis 1), numpy's last axis, broadcast, whole
            prelu = instance("PReLU", 1, {}, {"data": x, "slope": uniform(slope, -1, 1, 8)}, dtype)
            assert verdict(prelu, lower(prelu)) == "", (dtype, slope)


def test_wrong_parametric_equivalences_fail_the_check():
    x = uniform([2, 4, 4], -4, 4)  # numpy would align a slope of 4 with the last axis, the text with axis 1
    per_channel = instance("PReLU", 1, {}, {"data": x, "slope": uniform([4], -1, 1, 8)}, "float32")
    assert verdict(per_channel, lowering(Recipe("PRelu", same("PRelu"), since=9))(per_channel)) != ""  # last axis
    shifted = instance("BitwiseRightShift", 15, {}, {"a": {"shape": [2], "data": [8, -8]},
                                                     "b": {"shape": [2], "data": [1, 2]}}, "int32")
    left = same("BitShift", lambda a: {"direction": "LEFT"})
    assert verdict(shifted, lowering(Recipe("BitShift", left, since=11))(shifted)) != ""


@pytest.mark.parametrize(("op", "version", "inputs", "dtype", "why"), [
    ("HardSigmoid", 1, {"data": [3], "alpha": [1], "beta": []}, "float32", "of shape []"),
    ("Selu", 1, {"data": [3], "alpha": [1], "lambda": [1]}, "float64", "no 32-bit float"),
    ("PReLU", 1, {"data": [2, 3], "slope": []}, "float32", "0-d"),
    ("PReLU", 1, {"data": [3], "slope": [2, 3]}, "float32", "would enlarge"),
])
def test_parametric_refusals_name_the_difference(op, version, inputs, dtype, why):
    values = {name: {"shape": shape, "data": [1.1] * max(1, len(shape) and shape[0] * (shape[1] if len(shape) > 1
                                                                                        else 1))}
              for name, shape in inputs.items()}
    rejected = why != "no 32-bit float"
    case = instance(op, version, {}, values, dtype, rejected)
    result = lower(case)
    assert isinstance(result, str) and why in result, result
