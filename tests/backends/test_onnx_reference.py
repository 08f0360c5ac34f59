"""onnx-reference: onnx.reference.ReferenceEvaluator as a second opinion, with lowering for other domains."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from conformance.backends.onnx_reference.backend import OnnxReferenceBackend
from conformance.model import CaseInstance
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text

BACKEND = OnnxReferenceBackend()


def instance(domain: str, op: str, version: int, attrs: dict, shape: list[int], **extra) -> CaseInstance:
    doc = {"op": op, "domain": domain, "version": version, "cases": [
        {"id": "c", "attributes": attrs, **extra,
         "inputs": {"x": {"shape": shape, "dtype": "float32", "arange": {"start": 1, "step": 1}}}}]}
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "t.yaml")
    assert not loaded.errors, loaded.errors
    return expand(loaded.cases[0])[0]


def onnx(attrs: dict, shape: list[int], version: int = 19) -> CaseInstance:
    return instance("ai.onnx", "AveragePool", version, attrs, shape)


@pytest.mark.parametrize("version", [11, 19, 22])
def test_plain_averagepool_passes_and_is_not_lowered(version):
    record = run_backend(onnx({"kernel_shape": [2, 2], "pads": [1, 1, 0, 0]}, [1, 1, 4, 4], version), BACKEND)
    assert record.status == "pass", record.reason
    assert record.lowered == ""


def test_openvino_case_runs_through_the_lowering_and_says_so():
    case = instance("openvino", "AvgPool", 1, {"kernel": [2, 2], "strides": [2, 2], "pads_begin": [0, 0],
                                               "pads_end": [0, 0], "exclude-pad": True, "auto_pad": "same_upper"},
                    [1, 1, 5, 5])
    record = run_backend(case, BACKEND)
    assert record.status == "pass", record.reason
    assert record.lowered.startswith("openvino AvgPool-1 -> ai.onnx AveragePool-19")
    assert BACKEND.run(case, inputs_of(case)).lowering == record.lowered  # the answer carries it, as a value


def test_a_case_without_exact_lowering_is_unsupported_with_the_reason():
    case = instance("openvino", "AvgPool", 1, {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1],
                                               "exclude-pad": False, "rounding_type": "ceil"}, [1, 1, 6])
    record = run_backend(case, BACKEND)
    assert record.status == "unsupported" and "overhang" in record.reason


def test_ceil_mode_with_auto_pad_is_a_declared_gap():
    record = run_backend(onnx({"kernel_shape": [3], "strides": [2], "auto_pad": "SAME_UPPER", "ceil_mode": 1},
                              [1, 1, 6]), BACKEND)
    assert record.status == "unsupported" and "ceil_mode is not supported with auto_pad" in record.reason


def test_divergence_1d_ceil_windows_are_shifted():
    # 7 elements, kernel 3, stride 3, ceil: windows [1,2,3] [4,5,6] [7] -> 2, 5, 7; onnx.reference starts at -1.
    record = run_backend(onnx({"kernel_shape": [3], "strides": [3], "ceil_mode": 1}, [1, 1, 7]), BACKEND)
    assert record.status == "fail" and "expected 2, got 1.5" in record.reason


def test_divergence_dilations_ignored_for_valid_shape():
    # VALID, kernel 2 dilated by 2 on 6 elements: extent 3 -> 4 outputs; onnx.reference computes 5.
    record = run_backend(onnx({"kernel_shape": [2], "dilations": [2], "auto_pad": "VALID"}, [1, 1, 6]), BACKEND)
    assert record.status == "fail" and record.actual_shape == [1, 1, 5] and record.expected_shape == [1, 1, 4]


def test_numpy_warnings_of_the_evaluation_stay_quiet_and_the_values_are_compared(recwarn):
    """A window entirely in padding: onnx.reference averages an empty slice (numpy warns, once per element); the NaN
    it returns is still its answer, compared and recorded, without a RuntimeWarning reaching the run's output."""
    from onnx import TensorProto, helper

    from conformance.backends.onnx_reference.run_onnx_reference import evaluate

    node = helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2], pads=[0, 3], ceil_mode=0)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])
    (y,) = evaluate(model, [np.arange(1, 4, dtype=np.float32).reshape(1, 1, 3)])
    assert y.shape == (1, 1, 5) and np.isnan(y[0, 0, -1])  # its answer for the window in padding, kept
    assert [w for w in recwarn if issubclass(w.category, RuntimeWarning)] == []
