"""torch: registry ops on torch.nn.functional, checked against the reference where the mapping is exact."""

from __future__ import annotations

import pytest
from backend_instances import instance

from conformance.pipeline.runner import run_backend

pytest.importorskip("torch")

from conformance.backends.torch.backend import TorchBackend  # noqa: E402


@pytest.fixture(scope="module")
def backend():
    return TorchBackend()


@pytest.mark.parametrize(("domain", "op", "version", "attrs", "shape", "extra"), [
    # Indices over the whole tensor: torch's per-plane index plus the (n, c) plane offset (N, C > 1 shows it)
    ("ai.onnx", "MaxPool", 12, {"kernel_shape": [3, 2], "strides": [2, 1], "pads": [1, 0, 1, 0], "dilations": [1, 2]},
     [2, 3, 6, 7], {"outputs": {"Y": {}, "Indices": {}}}),
    ("ai.onnx", "AveragePool", 22, {"kernel_shape": [3], "strides": [3], "pads": [1, 1], "ceil_mode": 1}, [1, 2, 5],
     {}),
    ("ai.onnx", "AveragePool", 19, {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1,
                                    "count_include_pad": 1}, [1, 1, 6, 6], {}),
    ("ai.onnx", "GlobalAveragePool", 22, {}, [2, 3, 4, 5, 2], {}),
    ("openvino", "AvgPool", 14, {"kernel": [3], "strides": [3], "pads_begin": [1], "pads_end": [1],
                                 "exclude-pad": True, "rounding_type": "ceil_torch"}, [1, 2, 5], {}),
    ("onednn", "AvgPool", 1, {"kernel": [2, 2], "strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1],
                              "exclude_pad": False, "data_format": "NXC"}, [2, 5, 5, 3], {}),
    ("ai.onnx", "GlobalMaxPool", 22, {}, [2, 3, 4, 5], {}),
    ("ai.onnx", "LpPool", 18, {"kernel_shape": [3, 2], "strides": [2, 1], "p": 2, "ceil_mode": 1}, [2, 3, 7, 5], {}),
    ("ai.onnx", "LpPool", 1, {"kernel_shape": [2], "p": 4.0}, [1, 2, 6], {}),
    ("ai.onnx", "GlobalLpPool", 2, {"p": 2}, [2, 3, 4, 3, 2], {}),
    # every OpenVINO index convention: axis 0 (whole tensor), 1 (per batch item), 3 (modulo W), -1, i32
    *[("openvino", "MaxPool", 8, {"kernel": [3, 2], "strides": [2, 1], "pads_begin": [1, 0], "pads_end": [1, 0],
                                  "dilations": [1, 2], "axis": axis, "index_element_type": kind},
       [2, 3, 6, 7], {"outputs": {"output": {}, "indices": {}}}) for axis, kind in ((0, "i64"), (1, "i32"),
                                                                                   (3, "i64"), (-2, "i32"))],
    ("openvino", "MaxPool", 14, {"kernel": [3], "strides": [3], "pads_begin": [1], "pads_end": [1],
                                 "rounding_type": "ceil_torch"}, [1, 2, 5], {"outputs": {"output": {}}}),
    ("onednn", "MaxPool", 1, {"kernel": [3, 3], "strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1],
                              "dilations": [2, 1], "data_format": "NXC"}, [2, 7, 6, 3], {}),
])
def test_exact_mappings_agree_with_the_reference(backend, domain, op, version, attrs, shape, extra):
    record = run_backend(instance(domain, op, version, attrs, shape, **extra), backend)
    assert record.status == "pass", record.reason


def test_adaptive_avg_pool_takes_output_size_from_the_second_input(backend):
    case = instance("openvino", "AdaptiveAvgPool", 8, {}, [1, 2, 7, 5],
                    **{"inputs": {"x": {"shape": [1, 2, 7, 5], "random": {"seed": 1}},
                                  "output_size": {"shape": [2], "dtype": "int64", "data": [3, 2]}}})
    record = run_backend(case, backend)
    assert record.status == "pass", record.reason
    assert record.actual_shape == [1, 2, 3, 2]


def test_the_onnx_ceil_rule_before_22_is_unsupported_where_torch_would_drop_a_window(backend):
    record = run_backend(instance("ai.onnx", "MaxPool", 11, {"kernel_shape": [3], "strides": [3], "pads": [1, 1],
                                                             "ceil_mode": 1}, [1, 2, 5]), backend)
    assert record.status == "unsupported"
    assert "torch drops a last window starting in the right padding" in record.reason


def test_capabilities_list_the_builder_table_with_versions(backend):
    capabilities = backend.capabilities()
    assert "MaxPool-1/8/10/11/12/22" in capabilities["ai.onnx"]
    assert "AvgPool-1" in capabilities["onednn"]
    assert "MaxPool-1" in capabilities["onednn"]
    assert "MaxPool-1/8/14" in capabilities["openvino"]
    assert {"LpPool-1/2/11/18/22", "GlobalLpPool-1/2/22", "GlobalMaxPool-1/22"} <= set(capabilities["ai.onnx"])


def test_adaptive_max_pool_returns_the_per_plane_index_in_the_index_element_type(backend):
    case = instance("openvino", "AdaptiveMaxPool", 8, {"index_element_type": "i32"}, [2, 2, 7, 5],
                    **{"inputs": {"x": {"shape": [2, 2, 7, 5], "random": {"seed": 1}},
                                  "output_size": {"shape": [2], "dtype": "int64", "data": [3, 2]}}})
    record = run_backend(case, backend)
    assert record.status == "pass", record.reason


def test_lp_pool_with_odd_p_runs_on_non_negative_inputs_only(backend):
    attrs = {"kernel_shape": [2, 2], "p": 3}
    negative = run_backend(instance("ai.onnx", "LpPool", 11, attrs, [1, 2, 4, 4]), backend)
    assert negative.status == "unsupported"
    assert "torch's lp_pool sums x**p" in negative.reason
    positive = instance("ai.onnx", "LpPool", 11, attrs, [1, 2, 4, 4], **{"inputs": {"x": {
        "shape": [1, 2, 4, 4], "random": {"seed": 2, "distribution": "uniform", "low": 0, "high": 4}}}})
    record = run_backend(positive, backend)
    assert record.status == "pass", record.reason


@pytest.mark.parametrize(("attrs", "reason"), [
    ({"kernel_shape": [2], "pads": [1, 1], "p": 2}, "no padding argument"),
    ({"kernel_shape": [2], "dilations": [2], "p": 2}, "no dilation argument"),
    # 5 -> ceil((5 - 2) / 2) + 1 = 3 windows, the last one [4, 6) overhangs the input by one element
    ({"kernel_shape": [2], "strides": [2], "ceil_mode": 1, "p": 2}, "overhangs the input"),
])
def test_lp_pool_geometry_torch_cannot_express_is_unsupported(backend, attrs, reason):
    record = run_backend(instance("ai.onnx", "LpPool", 18, attrs, [1, 2, 5]), backend)
    assert record.status == "unsupported"
    assert reason in record.reason


def test_openvino_axis_outside_the_rank_is_unsupported_not_passed_on(backend):
    record = run_backend(instance("openvino", "MaxPool", 8, {"kernel": [2], "strides": [1], "pads_begin": [0],
                                                             "pads_end": [0], "axis": 3}, [1, 2, 5],
                                  **{"outputs": {"output": {}, "indices": {}}, "expect": "error"}), backend)
    assert record.status == "unsupported"
    assert "axis=3" in record.reason


def test_a_missing_required_attribute_is_unsupported_since_torch_never_sees_it(backend):
    record = run_backend(instance("openvino", "MaxPool", 8, {"kernel": [2, 2], "strides": [1, 1], "auto_pad": "valid"},
                                  [1, 1, 4, 4], expect="error"), backend)
    assert record.status == "unsupported"
    assert "['pads_begin', 'pads_end'] missing" in record.reason


def test_a_float_output_size_is_unsupported_not_converted(backend):
    case = instance("openvino", "AdaptiveMaxPool", 8, {}, [1, 1, 4, 4], expect="error",
                    **{"inputs": {"x": {"shape": [1, 1, 4, 4], "random": {"seed": 1}},
                                  "output_size": {"shape": [2], "dtype": "float32", "data": [2.0, 2.0]}}})
    record = run_backend(case, backend)
    assert record.status == "unsupported"
    assert "output_size of dtype float32" in record.reason


def test_lp_pool_refuses_p_zero_with_its_own_division(backend):
    record = run_backend(instance("ai.onnx", "LpPool", 11, {"kernel_shape": [2], "p": 0}, [1, 1, 4],
                                  expect="error"), backend)
    assert record.status == "pass", record.reason  # the expected rejection: ZeroDivisionError in lp_pool
