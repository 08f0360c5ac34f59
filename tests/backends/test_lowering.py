"""lowering.py: every lowering it claims is exact against the reference; every refusal is a real difference."""

from __future__ import annotations

import random
import textwrap

import numpy as np
import onnxruntime as ort
import pytest
import yaml

import conformance_reference as reference
from conformance.backends.base import Unsupported
from conformance.backends.models.lowering import LoweredModel, lower, onnx_model_for
from conformance.model import CaseInstance
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text


def instances(doc: dict) -> list[CaseInstance]:
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "generated.yaml")
    assert not loaded.errors, loaded.errors
    return [i for c in loaded.cases for i in expand(c)]


def case(domain: str, op: str, version: int, attributes: dict, shape: list[int], **extra) -> CaseInstance:
    body = {"id": "c", "attributes": attributes,
            "inputs": {"x": {"shape": shape, "dtype": "float32", "random": {"seed": 3, "distribution": "normal"}}},
            **extra}
    return instances({"op": op, "domain": domain, "version": version, "cases": [body]})[0]


def run_lowered_with_reference(lowered: LoweredModel, x: np.ndarray) -> np.ndarray:
    """Evaluate the lowered graph with the reference's own ONNX kernels (Transpose by NumPy)."""
    opset = lowered.model.opset_import[0].version
    for node in lowered.model.graph.node:
        attrs = {a.name: onnx_attr(a) for a in node.attribute}
        if node.op_type == "Transpose":
            x = np.transpose(x, attrs["perm"])
        else:
            x = reference.evaluate("ai.onnx", node.op_type, opset, [x], attrs).outputs[0]
    return x


def onnx_attr(a):
    from onnx import helper

    value = helper.get_attribute_value(a)
    return list(value) if isinstance(value, list | tuple) else value


def expected(instance: CaseInstance, x: list[np.ndarray]):
    return reference.evaluate(instance.domain, instance.op, instance.version, x, instance.attributes)


def random_openvino(rng: random.Random) -> CaseInstance:
    version = rng.choice([1, 14, 16])
    rank = rng.choice([1, 2])
    shape = [1, 2] + [rng.randint(3, 8) for _ in range(rank)]
    attrs = {
        "kernel": [rng.randint(1, 3) for _ in range(rank)], "strides": [rng.randint(1, 3) for _ in range(rank)],
        "pads_begin": [rng.randint(0, 2) for _ in range(rank)], "pads_end": [rng.randint(0, 2) for _ in range(rank)],
        "exclude-pad": rng.random() < 0.5,
        "rounding_type": rng.choice(["floor", "ceil"] + (["ceil_torch"] if version >= 14 else [])),
        "auto_pad": rng.choice(["explicit", "explicit", "same_upper", "same_lower", "valid"]),
    }
    if version >= 16:
        attrs["dilations"] = [rng.randint(1, 2) for _ in range(rank)]
    return case("openvino", "AvgPool", version, attrs, shape)


def test_lowered_openvino_avgpool_matches_the_reference_and_refusals_are_real():
    rng = random.Random(20261122)
    lowered_count = refused = 0
    for _ in range(400):
        instance = random_openvino(rng)
        x = inputs_of(instance)
        result = lower(instance)
        try:
            want = expected(instance, x)
        except reference.SpecViolation:
            assert isinstance(result, str), f"{instance.attributes}: the reference rejects it, lowering must too"
            continue
        if isinstance(result, str):
            refused += 1
            continue
        lowered_count += 1
        got = run_lowered_with_reference(result, x[0])
        mask = want.unspecified[0]
        assert mask is None or not mask.any(), f"lowered a case with unspecified elements: {instance.attributes}"
        np.testing.assert_allclose(got, want.outputs[0], rtol=1e-6, atol=1e-6, err_msg=str(instance.attributes))
    assert lowered_count > 150 and refused > 20, (lowered_count, refused)


def test_onednn_nxc_is_transposed_around_averagepool_and_exact():
    attrs = {"kernel": [3, 2], "strides": [2, 1], "pads_begin": [1, 0], "pads_end": [1, 1], "exclude_pad": True,
             "rounding_type": "ceil"}
    (nxc,) = [i for i in instances({"op": "AvgPool", "domain": "onednn", "version": 1, "cases": [
        {"id": "c", "attributes": attrs, "layouts": ["NXC"],
         "inputs": {"x": {"shape": [1, 3, 5, 4], "dtype": "float32", "arange": {"start": 1, "step": 1}}}}]}
    )]
    assert nxc.input_shapes[0] == (1, 5, 4, 3)
    result = lower(nxc)
    assert isinstance(result, LoweredModel), result
    assert [n.op_type for n in result.model.graph.node] == ["Transpose", "AveragePool", "Transpose"]
    assert "Transpose" in result.description and "count_include_pad=0" in result.description
    x = inputs_of(nxc)
    want = expected(nxc, x).outputs[0]
    np.testing.assert_allclose(run_lowered_with_reference(result, x[0]), want, rtol=1e-6)
    session = ort.InferenceSession(result.model.SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(session.run(None, {"x": x[0]})[0], want, rtol=1e-6)


@pytest.mark.parametrize(
    ("domain", "version", "attrs", "shape", "why"),
    [
        # 6 + 1 + 1 - 3 = 5 -> ceil(5/2)+1 = 4 windows; the last spans [5, 8): one tap past the padded input.
        ("openvino", 1, {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "exclude-pad": False,
                         "rounding_type": "ceil"}, [1, 1, 6], "overhang"),
        ("onednn", 1, {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "exclude_pad": False,
                       "rounding_type": "ceil", "data_format": "NCX"}, [1, 1, 6], "overhang"),
        # 4 + 2 + 2 - 3 = 5 -> 4 windows; the last starts at 6 - 2 = 4 = past the input.
        ("openvino", 14, {"kernel": [3], "strides": [2], "pads_begin": [2], "pads_end": [2], "exclude-pad": True,
                          "rounding_type": "ceil_torch"}, [1, 1, 4], "starts past"),
        ("openvino", 1, {"kernel": [2], "strides": [1], "pads_begin": [2], "pads_end": [0], "exclude-pad": True},
         [1, 1, 4], "entirely in padding"),
    ],
)
def test_refusals_name_the_semantic_difference(domain, version, attrs, shape, why):
    instance = case(domain, "AvgPool", version, attrs, shape)
    result = lower(instance)
    assert isinstance(result, str) and why in result
    with pytest.raises(Unsupported, match=why):
        onnx_model_for(instance)


def test_the_overhang_refusal_is_a_real_difference():
    """OpenVINO's spec (reference) and oneDNN's divide the overhanging window differently: no single ONNX model."""
    common = {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "rounding_type": "ceil"}
    x = [np.arange(1, 7, dtype=np.float32).reshape(1, 1, 6)]
    ov = reference.evaluate("openvino", "AvgPool", 1, x, {**common, "exclude-pad": False}).outputs[0]
    dnnl = reference.evaluate("onednn", "AvgPool", 1, x, {**common, "exclude_pad": False,
                                                          "data_format": "NCX"}).outputs[0]
    assert ov[0, 0, -1] != dnnl[0, 0, -1]


def test_ceil_torch_without_a_dropped_window_is_lowered_as_ceil():
    instance = case("openvino", "AvgPool", 14, {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0],
                                                 "exclude-pad": True, "rounding_type": "ceil_torch"}, [1, 1, 5])
    result = lower(instance)
    assert isinstance(result, LoweredModel) and "ceil_torch" in result.description
    x = inputs_of(instance)
    np.testing.assert_allclose(run_lowered_with_reference(result, x[0]), expected(instance, x).outputs[0])


def test_same_upper_is_resolved_to_explicit_pads():
    instance = case("openvino", "AvgPool", 1, {"kernel": [2, 2], "strides": [2, 2], "pads_begin": [0, 0],
                                                "pads_end": [0, 0], "exclude-pad": True, "auto_pad": "same_upper"},
                    [1, 1, 5, 5])
    result = lower(instance)
    assert isinstance(result, LoweredModel)
    (node,) = result.model.graph.node
    attrs = {a.name: onnx_attr(a) for a in node.attribute}
    assert attrs["pads"] == [0, 0, 1, 1] and "auto_pad" not in attrs
    assert "resolved to pads [0, 0, 1, 1]" in result.description


def test_adaptive_avgpool_lowers_only_when_divisible():
    def adaptive(shape, size):
        return instances({"op": "AdaptiveAvgPool", "domain": "openvino", "version": 8, "cases": [
            {"id": "a", "inputs": {"x": {"shape": shape, "dtype": "float32", "arange": {"start": 0, "step": 1}},
                                   "size": {"dtype": "int64", "data": size, "shape": [len(size)]}}}]})[0]

    good = adaptive([1, 2, 6, 4], [3, 2])
    result = lower(good)
    assert isinstance(result, LoweredModel) and result.feeds == 1
    x = inputs_of(good)
    np.testing.assert_allclose(run_lowered_with_reference(result, x[0]), expected(good, x).outputs[0])
    bad = lower(adaptive([1, 2, 5, 4], [3, 2]))
    assert isinstance(bad, str) and "not multiples" in bad


def test_bfloat16_lowers_to_opset_22_and_float32_to_19():
    attrs = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "exclude-pad": True}
    body = {"id": "c", "attributes": attrs, "dtypes": ["float32", "bfloat16"],
            "inputs": {"x": {"shape": [1, 1, 4], "arange": {"start": 1, "step": 1}}}}
    f32, bf16 = instances({"op": "AvgPool", "domain": "openvino", "version": 1, "cases": [body]})
    assert lower(f32).model.opset_import[0].version == 19
    assert lower(bf16).model.opset_import[0].version == 22


def test_ai_onnx_cases_are_not_lowered():
    text = textwrap.dedent("""
        op: AveragePool
        domain: ai.onnx
        version: 19
        cases:
          - id: c
            attributes: {kernel_shape: [2]}
            inputs: {x: {shape: [1, 1, 4], dtype: float32, arange: {start: 1, step: 1}}}
    """)
    instance = expand(load_text(text, "t.yaml").cases[0])[0]
    model, feeds, lowering = onnx_model_for(instance)
    assert lowering == "" and feeds == 1 and model.graph.node[0].op_type == "AveragePool"
