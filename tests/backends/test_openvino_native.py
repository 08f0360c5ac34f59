"""openvino backend, openvino domain: opset-API builds of AvgPool-1/14/16 and AdaptiveAvgPool-8 on CPU."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import yaml

from conformance.backends.base import Unsupported
from conformance.backends.openvino import builders
from conformance.backends.openvino.backend import OpenVinoBackend
from conformance.model import CaseInstance
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text

BACKEND = OpenVinoBackend()
# The AvgPool-1 specification's first XML example, verbatim (it claims a 32x32 output: an erratum).
SPEC_EXAMPLE_1 = """
op: AvgPool
domain: openvino
version: 1
cases:
  - id: spec_example_1
    source: spec-example
    ir_xml: |
      <layer ... type="AvgPool" ... >
      <data auto_pad="same_upper" exclude-pad="true" kernel="2,2" pads_begin="0,0" pads_end="1,1" strides="2,2"/>
      <input><port id="0"><dim>1</dim><dim>3</dim><dim>32</dim><dim>32</dim></port></input>
      <output><port id="1"><dim>1</dim><dim>3</dim><dim>32</dim><dim>32</dim></port></output>
      </layer>
"""
ONNX_CASE = """
op: AveragePool
domain: ai.onnx
version: 19
cases:
  - id: c
    attributes: {kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1}
    inputs: {x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1, step: 1}}}
    outputs: {y: {shape: [1, 1, 2, 2], data: [6, 7.5, 12, 13.5]}}
"""


def avgpool(version: int, attrs: dict, shape: list[int], dtype: str = "float32", **extra) -> CaseInstance:
    doc = {"op": "AvgPool", "domain": "openvino", "version": version, "cases": [
        {"id": "c", "attributes": attrs, "dtypes": [dtype], **extra,
         "inputs": {"x": {"shape": shape, "random": {"seed": 11, "distribution": "normal"}}}}]}
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "t.yaml")
    assert not loaded.errors, loaded.errors
    return expand(loaded.cases[0])[0]


def adaptive(shape: list[int], size: list[int], size_dtype: str = "int64", dtype: str = "float32") -> CaseInstance:
    doc = {"op": "AdaptiveAvgPool", "domain": "openvino", "version": 8, "cases": [
        {"id": "a", "dtypes": [dtype], "inputs": {
            "x": {"shape": shape, "random": {"seed": 5, "distribution": "normal"}},
            "output_size": {"shape": [len(size)], "dtype": size_dtype, "data": size}}}]}
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "t.yaml")
    assert not loaded.errors, loaded.errors
    return expand(loaded.cases[0])[0]


BASE = {"kernel": [3, 2], "strides": [2, 1], "pads_begin": [1, 0], "pads_end": [1, 1], "exclude-pad": True}


@pytest.mark.parametrize("version", [1, 14, 16])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_avgpool_versions_and_dtypes_pass_against_the_reference(version, dtype):
    record = run_backend(avgpool(version, BASE, [1, 2, 7, 6], dtype), BACKEND)
    assert record.status == "pass", record.reason
    assert record.actual_dtype == dtype


def test_divergence_float64_is_computed_at_float32_precision():
    """The CPU plugin accepts f64 and returns f64, but the values carry float32 rounding errors."""
    record = run_backend(avgpool(1, BASE, [1, 2, 7, 6], "float64"), BACKEND)
    assert record.status == "fail" and record.actual_dtype == "float64"
    assert 1e-9 < record.max_abs_err < 1e-5


def test_avgpool16_without_dilations_uses_the_default_instead_of_crashing():
    # opset16.avg_pool(dilations=None) builds dilations=[] and compile_model segfaults (openvino 2026.4.1).
    instance = avgpool(16, BASE, [1, 1, 7, 6])
    (op,) = [n for n in builders.build_model(instance, inputs_of(instance)).get_ordered_ops()
             if n.get_type_name() == "AvgPool"]
    assert op.get_attributes()["dilations"] == [1, 1]


@pytest.mark.parametrize(("version", "expected"), [(1, "opset1"), (14, "opset14"), (16, "opset16")])
def test_the_node_is_built_at_the_case_version(version, expected):
    instance = avgpool(version, BASE, [1, 1, 5, 5])
    model = builders.build_model(instance, inputs_of(instance))
    (op,) = [n for n in model.get_ordered_ops() if n.get_type_name() == "AvgPool"]
    assert op.get_type_info().version_id == expected


def test_ceil_torch_and_dilations_reach_the_runtime():
    # ceil_torch drops the window starting in the right padding: 4 + 2 + 2 - 3 = 5 -> 4 ceil windows, 3 kept.
    torch = avgpool(14, {"kernel": [3], "strides": [2], "pads_begin": [2], "pads_end": [2], "exclude-pad": True,
                         "rounding_type": "ceil_torch"}, [1, 1, 4])
    assert BACKEND.run(torch, inputs_of(torch)).outputs[0].shape == (1, 1, 3)
    dilated = avgpool(16, {**BASE, "dilations": [2, 2]}, [1, 1, 9, 8])
    record = run_backend(dilated, BACKEND)
    assert record.status == "pass" and record.actual_shape == [1, 1, 4, 7], record.reason


def test_output_shape_is_openvinos_not_the_spec_examples_claim():
    instance = expand(load_text(SPEC_EXAMPLE_1, "t.yaml").cases[0])[0]
    assert instance.case.spec_example.output_dims[0] == (1, 3, 32, 32)  # the erratum
    (out,) = BACKEND.run(instance, inputs_of(instance)).outputs
    assert out.shape == (1, 3, 16, 16)


def test_bfloat16_crosses_as_bit_views_and_comes_back_bfloat16():
    instance = avgpool(1, {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0], "exclude-pad": True},
                       [1, 1, 4], "bfloat16")
    x = [np.array([[[1.0, 2.0, 3.0, 5.0]]], dtype=ml_dtypes.bfloat16)]
    (out,) = BACKEND.run(instance, x).outputs
    assert out.dtype == ml_dtypes.bfloat16
    assert out.astype(np.float32).tolist() == [[[1.5, 4.0]]]


@pytest.mark.parametrize("size_dtype", ["int32", "int64"])
def test_adaptive_avgpool_output_size_is_a_constant(size_dtype):
    instance = adaptive([1, 3, 7, 5], [3, 2], size_dtype)
    record = run_backend(instance, BACKEND)
    assert record.status == "pass", record.reason
    assert record.actual_shape == [1, 3, 3, 2]


def test_unsupported_versions_dtypes_layouts_and_attributes_have_reasons():
    assert "opset version" in BACKEND.supports(avgpool(8, BASE, [1, 1, 5, 5])).reason
    int_case = avgpool(1, BASE, [1, 1, 5, 5], "int32")
    assert not BACKEND.supports(int_case) and "floating-point" in BACKEND.supports(int_case).reason
    missing = avgpool(1, {k: v for k, v in BASE.items() if k != "exclude-pad"}, [1, 1, 5, 5], expect="error")
    with pytest.raises(Unsupported, match="exclude-pad"):
        BACKEND.run(missing, inputs_of(missing))
    assert run_backend(missing, BACKEND).status == "unsupported"
    extra = avgpool(1, {**BASE, "dilations": [1, 1]}, [1, 1, 5, 5], expect="error")
    with pytest.raises(Unsupported, match="dilations"):
        BACKEND.run(extra, inputs_of(extra))


def test_invalid_attributes_are_rejected_by_openvino_itself():
    zero = avgpool(1, {**BASE, "kernel": [0, 2]}, [1, 1, 5, 5], expect="error")
    record = run_backend(zero, BACKEND)
    assert record.status == "pass" and "rejected as expected" in record.reason


def test_divergence_ceil_overhang_divided_by_the_full_kernel():
    """docs/spec-notes.md V2: exclude-pad=false + ceil divides the overhanging window by the whole kernel."""
    instance = avgpool(1, {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "exclude-pad": False,
                           "rounding_type": "ceil"}, [1, 1, 6])
    x = [np.arange(1, 7, dtype=np.float32).reshape(1, 1, 6)]
    (out,) = BACKEND.run(instance, x).outputs
    # last window: taps 5 (=6), 6 (pad), 7 (overhang): spec divisor 2 -> 3.0, OpenVINO divides by 3 -> 2.0
    assert out[0, 0, -1] == pytest.approx(2.0)
    assert run_backend(instance, BACKEND).status == "fail"


def test_onnx_domain_still_goes_through_the_frontend():
    record = run_backend(expand(load_text(ONNX_CASE, "t.yaml").cases[0])[0], BACKEND)
    assert record.status == "pass", record.reason
