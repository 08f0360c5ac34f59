"""The ONNX model builder reads output ranks and dtypes and every input's dtype from the op's schema and the
reference: an op whose output rank is not its first input's, with integer inputs, builds without a core change."""

from __future__ import annotations

import conformance_reference as reference
from conformance import ops
from conformance.backends.models import shapes
from conformance.backends.models.single_node import build_model
from conformance.model import Case, TensorSpec
from conformance.ops.spec import OpEntry
from conformance.suite.expand import expand
from conformance_reference.schema import Port, Schema

# MaxRoiPool-like: data and regions of interest in, one pooled tile per region out; an int64 port left undeclared
# by the case takes its dtype from the schema
ROI = OpEntry(schema=Schema("ai.onnx", "MaxRoiPool", (1,), inputs=(Port("X"), Port("rois"), Port("batch", "int64")),
                            outputs=(Port("Y", rank_of=None), Port("argmax", dtype="int64", rank_of=None))))


def _case() -> Case:
    inputs = (TensorSpec("X", (1, 3, 8, 8), None, random={"seed": 1}),
              TensorSpec("rois", (2, 5), None, data=[0, 0, 0, 3, 3, 0, 1, 1, 4, 4]),
              TensorSpec("batch", (2,), None, data=[0, 0]))
    return Case(id="roi", op="MaxRoiPool", domain="ai.onnx", versions=(1,), source="test",
                attributes={"pooled_shape": [2, 2]}, inputs=inputs, outputs=(), dtypes=("float32",))


def _types(model):
    def info(v):
        dims = v.type.tensor_type.shape.dim if v.type.tensor_type.HasField("shape") else None
        return v.type.tensor_type.elem_type, None if dims is None else len(dims)

    return [info(v) for v in model.graph.input], [info(v) for v in model.graph.output]


def test_ranks_from_the_reference_and_dtypes_from_the_schema(monkeypatch):
    monkeypatch.setattr(ops, "find", lambda domain, op: ROI if op == "MaxRoiPool" else None)
    seen = {}

    def output_shapes(instance, input_shapes, input_values):  # the oracle's question, answered here
        seen.update(input_values or {})
        return [(2, 3, 2, 2, 1), (2, 3, 2, 2, 1)]

    monkeypatch.setattr(shapes, "output_shapes", output_shapes)
    (instance,) = expand(_case())
    assert instance.input_dtypes == ["float32", "float32", "int64"]  # rois follow the instance, batch the port
    inputs, outputs = _types(build_model(instance, check=False))
    assert inputs == [(1, 4), (1, 2), (7, 1)]  # FLOAT, FLOAT, INT64
    assert outputs == [(1, 5), (7, 5)]  # the reference's rank 5 (not X's 4); argmax int64 as the schema says
    assert sorted(seen) == [2]  # only the integer input was materialized for the shape question


def test_an_output_tied_to_no_input_has_no_shape_where_the_reference_rejects(monkeypatch):
    monkeypatch.setattr(ops, "find", lambda domain, op: ROI if op == "MaxRoiPool" else None)

    def rejects(*args, **kwargs):
        raise reference.SpecViolation("negative case")

    monkeypatch.setattr(shapes, "output_shapes", rejects)
    (instance,) = expand(_case())
    _, outputs = _types(build_model(instance, check=False))
    assert outputs == [(1, None), (7, None)]


def test_a_negative_case_keeps_the_declared_input_rank():
    case = Case(id="neg", op="AveragePool", domain="ai.onnx", versions=(19,), source="test",
                attributes={"kernel_shape": [9, 9]}, inputs=(TensorSpec("X", (1, 1, 2, 2), None),),
                outputs=(), dtypes=("float32",), expect_error=True)
    (instance,) = expand(case)
    assert shapes.output_ranks(instance) == [4]
