"""K read from the node as it runs (conformance/ops/terms.py), pinned for every single-node accumulating onnx
backend test against the node's own count, had another way: the node run by onnx's evaluator on inputs of ones
(a sum of products of ones is the number of its terms; a product of twos is 2^terms; a softmax of ones is 1/n).
Then planted bugs the corrected K catches."""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from conformance import model_oracle
from conformance.ops import terms
from conformance.suite import backend_tests
from conformance.suite.expand import expand

LINEAR = {"Conv", "ConvTranspose", "MatMul", "Gemm", "ReduceSum", "ReduceL1", "ReduceSumSquare", "CumSum", "Sum",
          "ReduceMean"}


@functools.cache
def _single_node_accumulating() -> dict[str, tuple]:
    found = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kind in backend_tests.KINDS:
            for test in backend_tests.load(kind):
                instance = expand(backend_tests.to_case(test))[0]
                model = onnx.load_from_string(instance.model)
                judged = model_oracle.judged_node(instance, model)
                if judged.family.name == "accumulate" and len(model.graph.node) == 1:
                    found[instance.id] = (instance, model, judged)
    return found


def _own_count(instance, model) -> int | None:
    """The node's count by evaluation: None for an op this way cannot count (window functions: fixed)."""
    from onnx.reference import ReferenceEvaluator

    proto = onnx.ModelProto()
    proto.CopyFrom(model)
    node = proto.graph.node[0]
    op = node.op_type
    fill = 2.0 if op in ("ReduceProd", "CumProd") else 1.0
    if op == "Gemm":
        for attribute in node.attribute:
            if attribute.name in ("alpha", "beta"):
                attribute.f = 1.0
    for tensor in proto.graph.initializer:
        array = numpy_helper.to_array(tensor)
        if array.dtype.kind == "f":
            tensor.CopyFrom(numpy_helper.from_array(np.full_like(array, fill), tensor.name))
    initializers = {t.name for t in proto.graph.initializer}
    names = [i.name for i in proto.graph.input if i.name not in initializers]
    feeds = {}
    for position, (name, spec) in enumerate(zip(names, instance.inputs)):
        array = np.asarray(spec.array)  # the data (input 0, integer too) and every float input; axes keep theirs
        feeds[name] = np.full_like(array, fill) if position == 0 or array.dtype.kind == "f" else array
    inverse = any(a.name == "inverse" and a.i for a in node.attribute)
    if op in ("BlackmanWindow", "HammingWindow", "HannWindow", "Mean", "TreeEnsemble") or inverse:
        # a fixed count; a mean of ones is 1; an inverse transform divides its n terms by n; a tree ensemble's
        # terms are its trees (its attributes), not its inputs
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = np.abs(np.asarray(ReferenceEvaluator(proto).run(None, feeds)[0], dtype=np.float64))
    if out.size == 0:
        return None  # no output element: no count to compare
    if op == "ReduceMean":  # each output averages in.size / out.size elements
        return math.prod(np.shape(feeds[names[0]])) // out.size
    if op in ("ReduceProd", "CumProd"):
        return int(round(math.log2(out.max())))
    if op == "Softmax":
        return int(round(1 / out.min()))
    if op in ("DFT", "STFT"):
        return int(round(out.max()))
    return int(round(out.max()))


def test_every_single_node_accumulating_test_is_found():
    found = _single_node_accumulating()
    assert len(found) >= 150 and {j.op for _, _, j in found.values()} >= {"Conv", "Gemm", "Softmax", "ReduceSum"}


@pytest.mark.parametrize("test_id", sorted(_single_node_accumulating()))
def test_k_is_the_nodes_own_count(test_id):
    instance, model, judged = _single_node_accumulating()[test_id]
    k, note = model_oracle.terms(instance, judged, model)
    assert note == ""  # read from the node, no fallback
    own = _own_count(instance, model)
    if own is not None:
        assert k == own, (test_id, k, own)


def _judged(test_id: str, planted) -> dict:
    from conformance.oracle import oracle_for
    from conformance.pipeline.verdict import judge_outputs

    instance, _, _ = _single_node_accumulating()[test_id]
    oracle = oracle_for(instance)
    expected = oracle.expected()
    return judge_outputs(oracle.evidence(len(expected)), expected, [planted(e.copy()) for e in expected], "fake")


def _scaled(factor: float):
    def plant(y: np.ndarray) -> np.ndarray:
        flat = y.reshape(-1)
        flat[np.argmax(np.abs(flat))] *= np.float32(factor)
        return y
    return plant


@pytest.mark.parametrize(("test_id", "k"), [
    # pytorch's conv keeps its weights in initializers: 144 terms, not the 640,000 elements of the graph's input
    ("ai.onnx/Conv-6/test_operator_conv[float32]", 144),
    ("ai.onnx/Softmax-13/test_softmax_axis_0[float32]", 3),  # axis 0 of [3, 4, 5], not the default last axis
    ("ai.onnx/Gemm-13/test_gemm_transposeA[float32]", 7),  # A is [6, 3] transposed: 6 terms, and C
])
def test_a_planted_relative_error_the_nodes_own_k_catches(test_id: str, k: int) -> None:
    instance, model, judged = _single_node_accumulating()[test_id]
    assert model_oracle.terms(instance, judged, model) == (k, "")
    # a relative 2e-3 on the largest element: ONNX's default rtol 1e-3 fails it, and so does the node's own K
    assert _judged(test_id, _scaled(1 + 2e-3))["status"] == "fail"
    assert _judged(test_id, lambda y: y)["status"] == "pass"


def test_a_term_dropped_from_a_conv_with_initialized_weights_fails() -> None:
    # the weights live in initializers: dropping one tap's product changes an element by |x·w|, far above the
    # 146·u bound of 144 terms (with K = 640,000 it would pass)
    test_id = "ai.onnx/Conv-6/test_operator_conv[float32]"
    instance, model, _ = _single_node_accumulating()[test_id]
    weights = numpy_helper.to_array(model.graph.initializer[0])
    x = np.asarray(instance.inputs[0].array)
    term = float(np.abs(x[0, 0, 0, 0] * weights[0, 0, 0, 0]))

    def drop(y: np.ndarray) -> np.ndarray:
        y[0, 0, 0, 0] -= np.float32(x[0, 0, 0, 0] * weights[0, 0, 0, 0])
        return y
    assert term > 0 and _judged(test_id, drop)["status"] == "fail"


def test_node_reads_initializers_constants_and_attributes() -> None:
    w = helper.make_tensor("w", onnx.TensorProto.FLOAT, [4, 2, 3, 3], np.ones(72, np.float32))
    axes = helper.make_node("Constant", [], ["axes"], value=numpy_helper.from_array(np.array([1], np.int64)))
    conv = helper.make_node("Conv", ["x", "w"], ["c"], group=2)
    reduce = helper.make_node("ReduceSum", ["c", "axes"], ["y"])
    graph = helper.make_graph([axes, conv, reduce], "g",
                              [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 4, 5, 5])],
                              [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    assert terms.terms(model, {}, "Conv") == 2 * 9  # C/group · kernel, from the initializer and the attribute
    assert terms.terms(model, {}, "ReduceSum") == 4  # the Constant's axis of the inferred [1, 4, 3, 3]
    assert terms.terms(model, {}, "Softmax") == 18  # no Softmax node: the body's accumulating nodes, the largest
