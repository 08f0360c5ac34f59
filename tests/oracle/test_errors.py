"""SpecViolation for each class of invalid attribute or input (negative cases rely on it)."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference

X3 = np.zeros((1, 1, 6), np.float32)
X4 = np.zeros((1, 1, 6, 6), np.float32)
X6 = np.zeros((1, 1, 2, 2, 2, 2), np.float32)
OV = {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "exclude-pad": True}
DNN = {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "exclude_pad": True,
       "data_format": "NCX"}

ONNX_BAD = {
    "kernel 0": {"kernel_shape": [0, 2]},
    "stride 0": {"kernel_shape": [2, 2], "strides": [0, 1]},
    "negative pad": {"kernel_shape": [2, 2], "pads": [0, -1, 0, 0]},
    "kernel rank": {"kernel_shape": [2]},
    "strides rank": {"kernel_shape": [2, 2], "strides": [1]},
    "pads length": {"kernel_shape": [2, 2], "pads": [1, 1]},
    "dilation 0": {"kernel_shape": [2, 2], "dilations": [0, 1]},
    "missing kernel": {"strides": [1, 1]},
    "auto_pad enum": {"kernel_shape": [2, 2], "auto_pad": "SAME"},
    "auto_pad lowercase": {"kernel_shape": [2, 2], "auto_pad": "same_upper"},
    "pads with auto_pad": {"kernel_shape": [2, 2], "auto_pad": "VALID", "pads": [0, 0, 0, 0]},
    "ceil_mode 2": {"kernel_shape": [2, 2], "ceil_mode": 2},
    "count_include_pad bool": {"kernel_shape": [2, 2], "count_include_pad": True},
    "kernel beyond input": {"kernel_shape": [7, 2]},
    "kernel beyond input (VALID)": {"kernel_shape": [7, 2], "auto_pad": "VALID"},
    "unknown attribute": {"kernel_shape": [2, 2], "storage_order": 0},
    "kernel not ints": {"kernel_shape": [2.0, 2]},
}


@pytest.mark.parametrize("attrs", ONNX_BAD.values(), ids=ONNX_BAD.keys())
def test_onnx_invalid_attributes(attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "AveragePool", 22, [X4], attrs)
    with pytest.raises(reference.SpecViolation):
        reference.output_shapes("ai.onnx", "AveragePool", 22, [X4.shape], attrs)


@pytest.mark.parametrize("version, attrs", [
    (1, {"kernel_shape": [2], "count_include_pad": 1}),
    (7, {"kernel_shape": [2], "ceil_mode": 1}),
    (11, {"kernel_shape": [2], "dilations": [1]}),
])
def test_onnx_attribute_from_a_later_version(version: int, attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation, match="not defined by this version"):
        reference.evaluate("ai.onnx", "AveragePool", version, [X3], attrs)


@pytest.mark.parametrize("x", [np.zeros((1, 6), np.float32), np.zeros((6,), np.float32)])
def test_onnx_input_rank_too_small(x: np.ndarray) -> None:
    with pytest.raises(reference.SpecViolation, match="rank"):
        reference.evaluate("ai.onnx", "AveragePool", 11, [x], {"kernel_shape": [2]})
    with pytest.raises(reference.SpecViolation, match="rank"):
        reference.evaluate("ai.onnx", "GlobalAveragePool", 1, [x], {})


@pytest.mark.parametrize("x", [np.zeros((1, 1, 6), np.int32), np.zeros((1, 1, 6), np.bool_)])
def test_non_float_input(x: np.ndarray) -> None:
    with pytest.raises(reference.SpecViolation, match="dtype"):
        reference.evaluate("ai.onnx", "AveragePool", 22, [x], {"kernel_shape": [2]})


def test_wrong_input_count() -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "AveragePool", 22, [X3, X3], {"kernel_shape": [2]})
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "AdaptiveAvgPool", 8, [X3], {})


OV_BAD = {
    "kernel 0": {**OV, "kernel": [0, 2]},
    "stride 0": {**OV, "strides": [1, 0]},
    "negative pads_begin": {**OV, "pads_begin": [-1, 0]},
    "negative pads_end": {**OV, "pads_end": [0, -1]},
    "rank mismatch": {**OV, "kernel": [2]},
    "missing exclude-pad": {k: v for k, v in OV.items() if k != "exclude-pad"},
    "exclude_pad spelling": {**{k: v for k, v in OV.items() if k != "exclude-pad"}, "exclude_pad": True},
    "exclude-pad as int": {**OV, "exclude-pad": 1},
    "rounding enum": {**OV, "rounding_type": "round"},
    "auto_pad uppercase": {**OV, "auto_pad": "SAME_UPPER"},
    "dilations before 16": {**OV, "dilations": [1, 1]},
    "kernel beyond input": {**OV, "kernel": [7, 7]},
}


@pytest.mark.parametrize("attrs", OV_BAD.values(), ids=OV_BAD.keys())
def test_openvino_invalid_attributes(attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "AvgPool", 14, [X4], attrs)


def test_openvino_rank_limits() -> None:
    with pytest.raises(reference.SpecViolation, match="rank"):
        reference.evaluate("openvino", "AvgPool", 16, [X6], {**OV, "kernel": [1] * 4, "strides": [1] * 4,
                                                               "pads_begin": [0] * 4, "pads_end": [0] * 4})


ADAPTIVE_BAD = {
    "zero size": np.array([0, 2], np.int64),
    "negative size": np.array([-1, 2], np.int32),
    "wrong length": np.array([2], np.int64),
    "float size": np.array([2.0, 2.0], np.float32),
    "2-D size": np.array([[2, 2]], np.int64),
}


@pytest.mark.parametrize("size", ADAPTIVE_BAD.values(), ids=ADAPTIVE_BAD.keys())
def test_adaptive_invalid_output_size(size: np.ndarray) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "AdaptiveAvgPool", 8, [X4, size], {})


def test_adaptive_rejects_the_examples_output_type_attribute() -> None:
    with pytest.raises(reference.SpecViolation, match="output_type"):
        reference.evaluate("openvino", "AdaptiveAvgPool", 8, [X4, np.array([2, 2])], {"output_type": "i64"})


DNN_BAD = {
    "kernel 0": {**DNN, "kernel": [0, 2]},
    "stride 0": {**DNN, "strides": [0, 1]},
    "negative pad": {**DNN, "pads_end": [-1, 0]},
    "dilations attribute": {**DNN, "dilations": [1, 1]},
    "ceil_torch": {**DNN, "rounding_type": "ceil_torch"},
    "auto_pad mixed case": {**DNN, "auto_pad": "Same_Upper"},
    "auto_pad explicit": {**DNN, "auto_pad": "explicit"},
    "data_format": {**DNN, "data_format": "NHWC"},
    "exclude-pad spelling": {**{k: v for k, v in DNN.items() if k != "exclude_pad"}, "exclude-pad": True},
}


@pytest.mark.parametrize("attrs", DNN_BAD.values(), ids=DNN_BAD.keys())
def test_onednn_invalid_attributes(attrs: dict) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("onednn", "AvgPool", 1, [X4], attrs)


def test_global_rejects_attributes() -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "GlobalAveragePool", 22, [X4], {"kernel_shape": [2, 2]})
