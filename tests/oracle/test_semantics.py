"""Targeted tests of every documented choice (docs/spec-notes.md), on 1-D inputs 1..L so that each
divisor is visible in the value.  NaN in an expected list means "unspecified" (masked)."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference

NAN = math.nan


def run(domain: str, op: str, version: int, length: int, attrs: dict, dtype=np.float32) -> list[float]:
    x = np.arange(1, length + 1, dtype=np.float64).astype(dtype).reshape(1, 1, length)
    res = reference.evaluate(domain, op, version, [x], attrs)
    y, mask = res.outputs[0], res.unspecified[0]
    assert y.dtype == x.dtype
    values = y.astype(np.float64).ravel()
    if mask is not None:
        assert np.isnan(values[mask.ravel()]).all()
    assert reference.output_shapes(domain, op, version, [x.shape], attrs) == [y.shape]
    return values.tolist()


def same(got: list[float], want: list[float]) -> bool:
    return len(got) == len(want) and all(
        (math.isnan(g) and math.isnan(w)) or g == w for g, w in zip(got, want)
    )


CEIL_START_IN_RIGHT_PAD = {"kernel_shape": [2], "strides": [2], "pads": [0, 1], "ceil_mode": 1}


@pytest.mark.parametrize("version, want", [(10, [1.5, 3.5, NAN]), (11, [1.5, 3.5, NAN]), (19, [1.5, 3.5, NAN]),
                                           (22, [1.5, 3.5])])
def test_onnx_last_window_rule_only_from_22(version: int, want: list[float]) -> None:
    # <= 19: the text's ceil formula (and onnx shape inference) give 3 windows; the third lies in padding.
    assert same(run("ai.onnx", "AveragePool", version, 4, CEIL_START_IN_RIGHT_PAD), want)


@pytest.mark.parametrize("version, want", [(19, [1.5, 3.5, 0.0]), (22, [1.5, 3.5])])
def test_onnx_window_in_right_pad_count_include_pad(version: int, want: list[float]) -> None:
    attrs = {**CEIL_START_IN_RIGHT_PAD, "count_include_pad": 1}  # one pad element counted, overhang not
    assert same(run("ai.onnx", "AveragePool", version, 4, attrs), want)


def test_onnx_22_drops_one_window_like_shape_inference() -> None:
    # pads >= kernel: two windows start in the right padding; onnx 1.23.2 shape inference drops one (-> 3).
    attrs = {"kernel_shape": [2], "strides": [1], "pads": [0, 3], "ceil_mode": 1}
    assert reference.output_shapes("ai.onnx", "AveragePool", 22, [(1, 1, 2)], attrs) == [(1, 1, 3)]
    assert reference.output_shapes("ai.onnx", "AveragePool", 19, [(1, 1, 2)], attrs) == [(1, 1, 4)]


@pytest.mark.parametrize("version", [10, 11, 19, 22])
def test_onnx_ceil_overhang_not_counted_by_count_include_pad(version: int) -> None:
    attrs = {"kernel_shape": [3], "strides": [2], "pads": [1, 1], "ceil_mode": 1, "count_include_pad": 1}
    assert same(run("ai.onnx", "AveragePool", version, 6, attrs), [1.0, 3.0, 5.0, 3.0])  # last: (6+0)/2, not /3
    attrs["count_include_pad"] = 0
    assert same(run("ai.onnx", "AveragePool", version, 6, attrs), [1.5, 3.0, 5.0, 6.0])


@pytest.mark.parametrize("version", [10, 11, 19, 22])
def test_onnx_valid_honours_ceil_mode(version: int) -> None:
    attrs = {"kernel_shape": [2], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1}
    assert same(run("ai.onnx", "AveragePool", version, 5, attrs), [1.5, 3.5, 5.0])
    attrs["ceil_mode"] = 0
    assert same(run("ai.onnx", "AveragePool", version, 5, attrs), [1.5, 3.5])


def test_onnx_window_entirely_in_padding_is_unspecified_or_zero() -> None:
    attrs = {"kernel_shape": [2], "strides": [1], "pads": [0, 3]}
    assert same(run("ai.onnx", "AveragePool", 11, 2, attrs), [1.5, 2.0, NAN, NAN])
    attrs["count_include_pad"] = 1
    assert same(run("ai.onnx", "AveragePool", 11, 2, attrs), [1.5, 1.0, 0.0, 0.0])


def test_onnx_1_never_counts_padding() -> None:
    attrs = {"kernel_shape": [3], "pads": [1, 1]}
    assert same(run("ai.onnx", "AveragePool", 1, 3, attrs), [1.5, 2.0, 2.5])


def test_onnx_same_counts_auto_pads_with_count_include_pad() -> None:
    attrs = {"kernel_shape": [4], "strides": [1], "auto_pad": "SAME_LOWER", "count_include_pad": 1}
    assert same(run("ai.onnx", "AveragePool", 11, 5, attrs), [0.75, 1.5, 2.5, 3.5, 3.0])


def test_onnx_19_dilations_in_same_and_valid() -> None:
    same_attrs = {"kernel_shape": [2], "dilations": [2], "auto_pad": "SAME_UPPER"}
    assert same(run("ai.onnx", "AveragePool", 19, 6, same_attrs), [2.0, 2.0, 3.0, 4.0, 5.0, 5.0])
    valid = {"kernel_shape": [2], "dilations": [2], "auto_pad": "VALID"}
    assert same(run("ai.onnx", "AveragePool", 19, 6, valid), [2.0, 3.0, 4.0, 5.0])


OV = {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [1], "exclude-pad": True, "rounding_type": "ceil"}


@pytest.mark.parametrize("version", [1, 14, 16])
def test_openvino_ceil_window_in_padding(version: int) -> None:
    assert same(run("openvino", "AvgPool", version, 4, OV), [1.5, 3.5, NAN])
    assert same(run("openvino", "AvgPool", version, 4, {**OV, "exclude-pad": False}), [1.5, 3.5, 0.0])


@pytest.mark.parametrize("version", [14, 16])
def test_openvino_ceil_torch_drops_last_window(version: int) -> None:
    assert same(run("openvino", "AvgPool", version, 4, {**OV, "rounding_type": "ceil_torch"}), [1.5, 3.5])
    # a single decrement, as in PyTorch and OpenVINO (the window at 3 still starts in the padding)
    attrs = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [3], "exclude-pad": False,
             "rounding_type": "ceil_torch"}
    assert same(run("openvino", "AvgPool", version, 2, attrs), [1.5, 1.0, 0.0])


def test_openvino_ceil_torch_needs_14() -> None:
    with pytest.raises(reference.SpecViolation, match="rounding_type"):
        run("openvino", "AvgPool", 1, 4, {**OV, "rounding_type": "ceil_torch"})


@pytest.mark.parametrize("version", [1, 14, 16])
def test_openvino_exclude_pad_false_does_not_count_ceil_overhang(version: int) -> None:
    attrs = {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "exclude-pad": False,
             "rounding_type": "ceil"}
    assert same(run("openvino", "AvgPool", version, 6, attrs), [1.0, 3.0, 5.0, 3.0])  # OpenVINO gives 2.0 last


def test_openvino_16_dilations() -> None:
    attrs = {"kernel": [2], "strides": [2], "pads_begin": [1], "pads_end": [1], "exclude-pad": False,
             "rounding_type": "ceil", "dilations": [2]}
    assert same(run("openvino", "AvgPool", 16, 7, attrs), [1.0, 3.0, 5.0, 3.0])
    same_attrs = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "exclude-pad": True,
                  "auto_pad": "same_upper", "dilations": [2]}
    assert same(run("openvino", "AvgPool", 16, 6, same_attrs), [2.0, 2.0, 3.0, 4.0, 5.0, 5.0])


def test_openvino_auto_pad_ignores_explicit_pads() -> None:
    attrs = {"kernel": [2], "strides": [2], "pads_begin": [3], "pads_end": [3], "exclude-pad": False,
             "auto_pad": "same_upper"}
    assert same(run("openvino", "AvgPool", 1, 5, attrs), [1.5, 3.5, 2.5])
    assert same(run("openvino", "AvgPool", 1, 5, {**attrs, "auto_pad": "valid"}), [1.5, 3.5])


def test_adaptive_windows_overlap() -> None:
    for length, out, want in [(5, 3, [1.5, 3.0, 4.5]), (7, 3, [2.0, 4.0, 6.0]), (3, 5, [1.0, 1.5, 2.0, 2.5, 3.0])]:
        x = np.arange(1, length + 1, dtype=np.float32).reshape(1, 1, length)
        res = reference.evaluate("openvino", "AdaptiveAvgPool", 8, [x, np.array([out], np.int64)], {})
        assert res.outputs[0].ravel().tolist() == want and res.unspecified == [None]


ONEDNN = {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "data_format": "NCX",
          "rounding_type": "ceil"}


def test_onednn_include_pad_divides_by_full_kernel() -> None:
    # DENOM = KH*KW whatever the window covers, also the ceil overhang (the library refuses this case).
    assert same(run("onednn", "AvgPool", 1, 6, {**ONEDNN, "exclude_pad": False}), [1.0, 3.0, 5.0, 2.0])
    assert same(run("onednn", "AvgPool", 1, 6, {**ONEDNN, "exclude_pad": True}), [1.5, 3.0, 5.0, 6.0])


def test_onednn_ceil_window_in_padding_unspecified() -> None:
    attrs = {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [1], "data_format": "NCX",
             "rounding_type": "ceil", "exclude_pad": True}
    assert same(run("onednn", "AvgPool", 1, 4, attrs), [1.5, 3.5, NAN])


def test_onednn_nxc_is_channels_last() -> None:
    x = np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2)  # N, H, W, C
    attrs = {"kernel": [3, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "exclude_pad": True}
    res = reference.evaluate("onednn", "AvgPool", 1, [x], attrs)
    assert res.outputs[0].shape == (1, 1, 1, 2)
    np.testing.assert_array_equal(res.outputs[0].ravel(), x.mean(axis=(1, 2)).ravel())


def test_onednn_auto_pad_spellings_are_synonyms() -> None:
    base = {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0], "exclude_pad": False,
            "data_format": "NCX"}
    for lib, doc in [("None", "none"), ("SAME_UPPER", "same_upper"), ("SAME_LOWER", "same_lower"), ("VALID", "valid")]:
        assert same(run("onednn", "AvgPool", 1, 5, {**base, "auto_pad": lib}),
                    run("onednn", "AvgPool", 1, 5, {**base, "auto_pad": doc}))


def test_bfloat16_rounds_once() -> None:
    # mean = 0.5 * (1 + 2**-8) + 2**-30 / 6: just above a bfloat16 midpoint, by less than half a float32 ulp;
    # rounding through float32 would land on the midpoint and round down to 0.5.
    x = np.array([1, 1, 1, 2**-7, 2**-8, 2**-30], dtype=ml_dtypes.bfloat16).reshape(1, 1, 6)
    y = reference.evaluate("ai.onnx", "GlobalAveragePool", 22, [x], {}).outputs[0]
    assert y.dtype == ml_dtypes.bfloat16 and float(y.ravel()[0]) == 0.5 * (1 + 2**-7)


def test_float16_and_float64_dtypes_preserved() -> None:
    for dtype in (np.float16, np.float64):
        x = np.arange(8, dtype=dtype).reshape(1, 1, 8)
        y = reference.evaluate("ai.onnx", "AveragePool", 11, [x], {"kernel_shape": [3]}).outputs[0]
        assert y.dtype == dtype and y.ravel().tolist() == [1, 2, 3, 4, 5, 6]


def test_nan_input_poisons_only_its_windows() -> None:
    x = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 6)
    x[0, 0, 0] = np.nan
    res = reference.evaluate("ai.onnx", "AveragePool", 22, [x], {"kernel_shape": [2], "strides": [2]})
    assert np.isnan(res.outputs[0][0, 0, 0]) and res.outputs[0][0, 0, 1:].tolist() == [3.5, 5.5]
    assert res.unspecified == [None]  # a NaN input is not an unspecified output
