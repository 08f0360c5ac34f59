"""A rejection's text is a function of the case: OpenVINO's process-wide node counter is taken out of it."""

from __future__ import annotations

import numpy as np
import pytest
from backend_instances import instance

from conformance.backends.answers import stable as without_counters

pytest.importorskip("openvino")


def test_counters_are_replaced_and_the_rest_kept() -> None:
    text = ("While validating node 'opset1::AvgPool AvgPool_199691 (opset1::Parameter x[0]:f32[2,3])' with "
            "friendly_name 'AvgPool_199691': Expected a 3D, 4D or 5D tensor; opset8 kernel_shape x_0")
    assert without_counters(text) == text.replace("AvgPool_199691", "AvgPool_<n>")


def test_an_address_in_a_function_node_name_is_replaced() -> None:
    text = ("While translating ONNX node '<Node(RandomUniformLike): Func_Bernoulli0x7ffed47d7ca0X_random>': "
            "Invalid attribute 0x1f")
    assert without_counters(text) == text.replace("0x7ffed47d7ca0", "0x<address>")


def _rejection(backend, case) -> str:
    with pytest.raises(RuntimeError) as info:
        backend.run(case, [np.ones(tuple(case.input_shapes[0]), np.float32)])
    return str(info.value)


@pytest.mark.parametrize("name", ["openvino", "openvino-ir"])
def test_the_same_rejection_reads_the_same_after_other_models(name: str) -> None:
    from conformance.backends import registry

    backend = registry.create(name)
    if name == "openvino":
        domain, op, version, attrs = "ai.onnx", "AveragePool", 22, {"kernel_shape": [2]}
        valid_attrs = {"kernel_shape": [2, 2]}
    else:
        domain, op, version = "openvino", "AvgPool", 14
        attrs = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "exclude-pad": True}
        valid_attrs = {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                       "exclude-pad": True}
    rank2 = instance(domain, op, version, attrs, [2, 3])
    valid = instance(domain, op, version, valid_attrs, [1, 1, 4, 4])
    first = _rejection(backend, rank2)
    for _ in range(3):  # nodes built in between move OpenVINO's counter on
        backend.run(valid, [np.ones((1, 1, 4, 4), np.float32)])
    assert _rejection(backend, rank2) == first
    assert "_<n>" in first  # the message quoted a node name, and it no longer carries the counter
