"""openvino-ir: cases written as IR v11 XML and read with Core.read_model (the IR reader is under test too)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
import yaml
from defusedxml import ElementTree

from conformance.backends.openvino.ir import build_ir, ir_value
from conformance.backends.openvino.ir_backend import OpenVinoIrBackend
from conformance.model import CaseInstance
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text

BACKEND = OpenVinoIrBackend()
BASE = {"kernel": [3, 2], "strides": [2, 1], "pads_begin": [1, 0], "pads_end": [1, 1], "exclude-pad": True}
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
ADAPTIVE_EXAMPLE = """
op: AdaptiveAvgPool
domain: openvino
version: 8
cases:
  - id: spec_example
    source: spec-example
    inputs:
      x: {shape: [1, 3, 32, 32], dtype: float32, random: {seed: 2}}
      output_size: {shape: [2], dtype: int64, data: [16, 16]}
    ir_xml: |
      <layer ... type="AdaptiveAvgPool" ... >
      <data output_type="i64"/>
      <input><port id="0"><dim>1</dim><dim>3</dim><dim>32</dim><dim>32</dim></port></input>
      <input><port id="1"><dim>2</dim></port></input>
      <output><port id="2"><dim>1</dim><dim>3</dim><dim>16</dim><dim>16</dim></port></output>
      </layer>
"""


def one(text: str) -> CaseInstance:
    loaded = load_text(textwrap.dedent(text), "t.yaml")
    assert not loaded.errors, loaded.errors
    return expand(loaded.cases[0])[0]


def avgpool(version: int, attrs: dict, shape: list[int], dtype: str = "float32", **extra) -> CaseInstance:
    doc = {"op": "AvgPool", "domain": "openvino", "version": version, "cases": [
        {"id": "c", "attributes": attrs, "dtypes": [dtype], **extra,
         "inputs": {"x": {"shape": shape, "random": {"seed": 11, "distribution": "normal"}}}}]}
    return one(yaml.safe_dump(doc, sort_keys=False))


def layer(xml: str, type_: str):
    return next(e for e in ElementTree.fromstring(xml).iter("layer") if e.attrib["type"] == type_)


def test_ir_is_v11_parameter_op_result_with_case_attributes():
    instance = avgpool(14, {**BASE, "rounding_type": "ceil_torch"}, [1, 2, 7, 6])
    xml, weights = build_ir(instance, inputs_of(instance))
    net = ElementTree.fromstring(xml)
    assert net.attrib["version"] == "11" and weights == b""
    assert [e.attrib["type"] for e in net.iter("layer")] == ["Parameter", "AvgPool", "Result"]
    pool = layer(xml, "AvgPool")
    assert pool.attrib["version"] == "opset14"
    assert pool.find("data").attrib == {"kernel": "3,2", "strides": "2,1", "pads_begin": "1,0", "pads_end": "1,1",
                                        "exclude-pad": "true", "rounding_type": "ceil_torch"}
    # output dims are what OpenVINO infers: (7 + 2 - 3) / 2 + 1 = 4 (ceil), (6 + 1 - 2) / 1 + 1 = 6
    assert [int(d.text) for d in pool.find("output/port").findall("dim")] == [1, 2, 4, 6]
    assert len(net.findall("edges/edge")) == 2


@pytest.mark.parametrize("version", [1, 14, 16])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_avgpool_through_the_reader_passes(version, dtype):
    attrs = {**BASE, "dilations": [1, 2]} if version == 16 else BASE
    instance = avgpool(version, attrs, [1, 2, 7, 6], dtype)
    record = run_backend(instance, BACKEND)
    assert record.status == "pass", record.reason
    assert "<net" in BACKEND.run(instance, inputs_of(instance)).ir  # the IR it wrote, in its answer


def test_spec_example_data_is_verbatim_and_the_wrong_output_dims_are_accepted():
    instance = one(SPEC_EXAMPLE_1)
    xml, _ = build_ir(instance, inputs_of(instance))
    pool = layer(xml, "AvgPool")
    assert pool.find("data").attrib["exclude-pad"] == "true" and pool.find("data").attrib["kernel"] == "2,2"
    assert [int(d.text) for d in pool.find("output/port").findall("dim")] == [1, 3, 32, 32]  # the claim
    (out,) = BACKEND.run(instance, inputs_of(instance)).outputs
    assert out.shape == (1, 3, 16, 16)  # OpenVINO re-infers and silently ignores the written dims


def test_adaptive_output_size_is_a_const_in_the_weights_and_unknown_attributes_pass_through():
    instance = one(ADAPTIVE_EXAMPLE)
    xml, weights = build_ir(instance, inputs_of(instance))
    assert weights == (16).to_bytes(8, "little") * 2
    const = layer(xml, "Const").find("data").attrib
    assert const == {"element_type": "i64", "shape": "2", "offset": "0", "size": "16"}
    assert layer(xml, "AdaptiveAvgPool").find("data").attrib == {"output_type": "i64"}
    record = run_backend(instance, BACKEND)
    # the reader accepts the example's output_type attribute the op does not have; values are right
    assert record.actual_shape == [1, 3, 16, 16] and record.status in ("pass", "erratum"), record.reason


def test_reader_divergence_missing_exclude_pad_is_accepted():
    instance = avgpool(1, {k: v for k, v in BASE.items() if k != "exclude-pad"}, [1, 1, 5, 5], expect="error")
    assert "exclude-pad" not in layer(build_ir(instance, inputs_of(instance))[0], "AvgPool").find("data").attrib
    record = run_backend(instance, BACKEND)
    assert record.status == "fail" and "accepted invalid input" in record.reason


@pytest.mark.parametrize("extra", [{"bogus": [3]}, {"dilations": [2, 2]}])
def test_reader_divergence_unknown_attributes_are_accepted(extra):
    # an attribute AvgPool never defines is a typo unless the negative case says it means it
    record = run_backend(avgpool(1, {**BASE, **extra}, [1, 1, 5, 5], expect="error", tags=["unknown-attribute"]),
                         BACKEND)
    assert record.status == "fail" and "accepted invalid input" in record.reason


def test_reader_rejects_kernel_zero():
    record = run_backend(avgpool(1, {**BASE, "kernel": [0, 2]}, [1, 1, 5, 5], expect="error"), BACKEND)
    assert record.status == "pass" and "rejected as expected" in record.reason


def test_reader_divergence_avgpool16_without_dilations_crashes_the_process():
    """AvgPool-16 IR without the optional dilations attribute: dilations=[] and compile_model segfaults."""
    script = textwrap.dedent("""
        import yaml
        from conformance.backends.openvino.ir_backend import OpenVinoIrBackend
        from conformance.suite.expand import expand, inputs_of
        from conformance.suite.loader import load_text
        doc = {"op": "AvgPool", "domain": "openvino", "version": 16, "cases": [{"id": "c", "attributes": %r,
               "inputs": {"x": {"shape": [1, 1, 7, 6], "dtype": "float32", "random": {"seed": 1}}}}]}
        i = expand(load_text(yaml.safe_dump(doc, sort_keys=False), "t").cases[0])[0]
        print(OpenVinoIrBackend().run(i, inputs_of(i)).outputs[0].shape)
    """) % BASE
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode < 0 or done.returncode == 139, (done.returncode, done.stdout, done.stderr[-500:])


def test_ir_values():
    assert ir_value([2, 2]) == "2,2" and ir_value(True) == "true" and ir_value("ceil") == "ceil"


def test_only_openvino_cases_are_supported():
    onnx_case = one("""
        op: AveragePool
        domain: ai.onnx
        version: 19
        cases:
          - id: c
            attributes: {kernel_shape: [2]}
            inputs: {x: {shape: [1, 1, 4], dtype: float32}}
    """)
    assert not BACKEND.supports(onnx_case) and "openvino" in BACKEND.supports(onnx_case).reason
