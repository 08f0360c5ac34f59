"""onnxruntime's native logger stays off the terminal: a refused model raises (the record keeps the text) and
writes nothing to the process's stderr (a fuzz run used to print one colored line per refusal)."""

from __future__ import annotations

import pytest

from conformance.backends.onnxruntime.run_onnxruntime import create_session

ort = pytest.importorskip("onnxruntime")


def refused_model() -> bytes:
    from onnx import TensorProto, helper

    node = helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2], pads=[3, 3])  # pads >= kernel
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)]).SerializeToString()


def test_refusal_is_raised_not_logged(capfd):
    with pytest.raises(Exception, match="Pad should be smaller than kernel"):
        create_session(ort, refused_model(), "CPUExecutionProvider")
    assert capfd.readouterr().err == ""
