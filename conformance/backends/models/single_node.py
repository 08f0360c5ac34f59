"""Build the single-node ONNX model of an ``ai.onnx`` case instance, at the case's own opset."""

from __future__ import annotations

import re

import onnx
from onnx import TensorProto, helper

from conformance.backends.models.shapes import output_dtypes, output_ranks
from conformance.model import CaseInstance

ONNX_TYPES = {
    "float16": TensorProto.FLOAT16,
    "float32": TensorProto.FLOAT,
    "float64": TensorProto.DOUBLE,
    "bfloat16": TensorProto.BFLOAT16,
    "int32": TensorProto.INT32,
    "int64": TensorProto.INT64,
    "int8": TensorProto.INT8,
    "uint8": TensorProto.UINT8,
    "int16": TensorProto.INT16,
    "uint16": TensorProto.UINT16,
    "uint32": TensorProto.UINT32,
    "uint64": TensorProto.UINT64,
}


def build_model(case: CaseInstance, check: bool = True) -> onnx.ModelProto:
    """One node, every input with its static shape and its own dtype (an integer input keeps its type), outputs
    with their dtype (the op registry's) and rank (conformance/backends/models/shapes.py) and no sizes.

    Output dims are left symbolic on purpose: the runtime's own shape inference is under test.
    ``check`` runs onnx.checker; negative cases skip it so that the runtime, not the checker, must reject them.
    """
    if case.domain != "ai.onnx":
        raise ValueError(f"{case.id}: only ai.onnx cases have an ONNX model (domain is {case.domain})")
    node = helper.make_node(case.op, case.input_names, case.output_names or ["y"])
    for name, value in case.attributes.items():
        # an empty list has no element to infer its type from (make_attribute raises ValueError): a negative
        # case's `kernel_shape: []` must reach the runtime, which is the one to reject it
        typed = {"attr_type": onnx.AttributeProto.INTS} if isinstance(value, list | tuple) and not value else {}
        node.attribute.append(helper.make_attribute(name, value, **typed))
    inputs = [
        helper.make_tensor_value_info(name, ONNX_TYPES[dtype], list(shape))
        for name, dtype, shape in zip(case.input_names, case.input_dtypes, case.input_shapes)
    ]
    names = case.output_names or ["y"]
    outputs = [
        helper.make_tensor_value_info(name, ONNX_TYPES[dtype], symbolic_dims(name, rank))
        for name, dtype, rank in zip(names, output_dtypes(case), output_ranks(case, len(names)))
    ]
    graph = helper.make_graph([node], _graph_name(case.id), inputs, outputs)
    model = helper.make_model_gen_version(graph, opset_imports=[helper.make_opsetid("", case.version)])
    model.producer_name = "conformance"
    if check:
        onnx.checker.check_model(model)
    return model


def symbolic_dims(name: str, rank: int | None) -> list[str] | None:
    """``rank`` named dims (the runtime infers their sizes); None, no shape at all, when the rank is unknown."""
    return None if rank is None else [f"{name}_d{d}" for d in range(rank)]


_NOT_WORD = re.compile(r"\W")


def _graph_name(case_id: str) -> str:
    # one regex pass instead of a per-character generator (this runs for every case on every ONNX backend)
    return _NOT_WORD.sub("_", case_id)[:120]
