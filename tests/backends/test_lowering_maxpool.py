"""lowering/openvino_maxpool.py: every OpenVINO MaxPool / AdaptiveMaxPool lowering it makes is exact against the
reference (values and, where lowered, indices, run by onnxruntime); every refusal names a real difference."""

from __future__ import annotations

import random

import numpy as np
import onnxruntime as ort
import pytest
from test_lowering import case, expected, instances, onnx_attr

import conformance_reference as reference
from conformance.backends.models.lowering import LoweredModel, lower
from conformance.suite.expand import inputs_of


def _run(lowered: LoweredModel, x: np.ndarray) -> list[np.ndarray]:
    session = ort.InferenceSession(lowered.model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x})


def _run_reference(lowered: LoweredModel, x: np.ndarray) -> list[np.ndarray]:
    """The lowered node evaluated by the reference's own ONNX MaxPool (onnxruntime refuses pads >= kernel)."""
    (node,) = lowered.model.graph.node
    attrs = {a.name: onnx_attr(a) for a in node.attribute}
    outputs = reference.evaluate("ai.onnx", "MaxPool", lowered.model.opset_import[0].version, [x], attrs).outputs
    return outputs[: len(lowered.model.graph.output)]


def random_maxpool(rng: random.Random):
    version = rng.choice([1, 8, 14])
    rank = rng.choice([1, 2])
    shape = [1, rng.choice([1, 2])] + [rng.randint(3, 8) for _ in range(rank)]
    attrs = {
        "kernel": [rng.randint(1, 3) for _ in range(rank)], "strides": [rng.randint(1, 3) for _ in range(rank)],
        "pads_begin": [rng.randint(0, 2) for _ in range(rank)], "pads_end": [rng.randint(0, 2) for _ in range(rank)],
        "rounding_type": rng.choice(["floor", "ceil"] + (["ceil_torch"] if version >= 14 else [])),
        "auto_pad": rng.choice(["explicit", "explicit", "same_upper", "same_lower", "valid"]),
    }
    if version >= 8:
        attrs["dilations"] = [rng.randint(1, 2) for _ in range(rank)]
        attrs["axis"] = rng.choice([0, 0, 1, 2, -1])
    return case("openvino", "MaxPool", version, attrs, shape)


def test_lowered_openvino_maxpool_matches_the_reference_and_refusals_are_real():
    rng = random.Random(20261122)
    lowered_count = refused = with_indices = 0
    for _ in range(250):
        instance = random_maxpool(rng)
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
        got = _run_reference(result, x[0])
        assert len(got) == len(want.outputs)
        assert want.unspecified[0] is None, f"lowered a case with unspecified values: {instance.attributes}"
        np.testing.assert_array_equal(got[0], want.outputs[0], err_msg=str(instance.attributes))
        if len(got) == 2:
            with_indices += 1
            np.testing.assert_array_equal(got[1], want.outputs[1], err_msg=str(instance.attributes))
    assert lowered_count > 60 and refused > 20 and with_indices > 20, (lowered_count, refused, with_indices)


@pytest.mark.parametrize(("version", "attrs", "shape", "dtype", "why"), [
    (8, {"kernel": [2], "strides": [1], "pads_begin": [2], "pads_end": [0]}, [1, 1, 4], "float32", "no input element"),
    (8, {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [1], "rounding_type": "ceil"}, [1, 1, 4],
     "float32", "starts past the input"),
    (8, {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "index_element_type": "i32"}, [1, 1, 4],
     "float32", "int64"),
    (8, {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "axis": 2}, [1, 2, 4], "float32",
     "whole-tensor"),
    (1, {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0]}, [1, 1, 4], "int32", "no int32 type"),
])
def test_refusals_name_the_semantic_difference(version, attrs, shape, dtype, why):
    body = {"id": "c", "attributes": attrs, "dtypes": [dtype],
            "inputs": {"x": {"shape": shape, "random": {"seed": 1, "distribution": "uniform", "low": 0, "high": 9}}}}
    (instance,) = instances({"op": "MaxPool", "domain": "openvino", "version": version, "cases": [body]})
    result = lower(instance)
    assert isinstance(result, str) and why in result, result


def test_axis_with_unit_leading_dimensions_lowers_indices():
    instance = case("openvino", "MaxPool", 8, {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0],
                                               "pads_end": [0, 0], "axis": 2}, [1, 1, 3, 3])
    result = lower(instance)
    assert isinstance(result, LoweredModel) and "Indices" in result.description
    x = inputs_of(instance)
    got, want = _run(result, x[0]), expected(instance, x).outputs
    np.testing.assert_array_equal(got[1], want[1])


def test_values_only_lowers_whatever_the_axis():
    body = {"id": "c", "attributes": {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "axis": 2,
                                      "index_element_type": "i32"},
            "inputs": {"x": {"shape": [2, 2, 5], "dtype": "float32", "random": {"seed": 2}}}, "outputs": {"y": {}}}
    (instance,) = instances({"op": "MaxPool", "domain": "openvino", "version": 8, "cases": [body]})
    result = lower(instance)
    assert isinstance(result, LoweredModel) and len(result.model.graph.output) == 1


def test_adaptive_maxpool_lowers_only_when_divisible():
    def adaptive(shape, size):
        return instances({"op": "AdaptiveMaxPool", "domain": "openvino", "version": 8, "cases": [
            {"id": "a", "inputs": {"x": {"shape": shape, "dtype": "float32", "random": {"seed": 3}},
                                   "size": {"dtype": "int64", "data": size, "shape": [len(size)]}}}]})[0]

    good = adaptive([1, 1, 6, 4], [3, 2])
    result = lower(good)
    assert isinstance(result, LoweredModel)
    x = inputs_of(good)
    got, want = _run(result, x[0]), expected(good, x).outputs
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert "not multiples" in lower(adaptive([1, 1, 5, 4], [3, 2]))
    assert "leading" in lower(adaptive([1, 2, 6, 4], [3, 2]))
