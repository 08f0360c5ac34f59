"""The generic half of a lowering written as a few ONNX nodes (elementwise.py's table): the case checked against its
OpenVINO schema, the graph the table's recipe builds, the opset chosen per element type (opsets.py), the model.

A case OpenVINO rejects (an attribute the version does not define, a required one missing, a value outside an
enumeration, a type outside the constraint) is not lowered: its ONNX model would be rejected for another reason,
or not at all, and the record would say nothing about the OpenVINO text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import onnx
from onnx import helper

from conformance import ops
from conformance.backends.models.lowering import opsets
from conformance.backends.models.lowering.model import LoweredModel, NoLowering, attr_text
from conformance.backends.models.shapes import output_dtypes, output_ranks
from conformance.backends.models.single_node import ONNX_TYPES, symbolic_dims
from conformance.model import CaseInstance

#: the element types of the lowered models: the harness's ONNX ones and the booleans of comparisons and logic
_TYPES = {**ONNX_TYPES, "bool": onnx.TensorProto.BOOL}

#: what a recipe's attributes may be, per the schema's kind (a bool is no int, nor a float)
_KINDS: dict[str, tuple[type, ...]] = {"float": (float, int), "int": (int,), "enum": (str,), "bool": (bool,)}


@dataclass(frozen=True)
class Graph:
    nodes: list[onnx.NodeProto]
    constants: list[onnx.TensorProto] = field(default_factory=list)  # initializers (Clip's bounds)
    notes: list[str] = field(default_factory=list)  # what the record says of this case's equivalence
    # (op, input port, type) the opset must give, where not every node takes the case's type on its first input
    # (NotEqual's Not takes the booleans its Equal makes; Where's data is its second input)
    typed: list[tuple[str, int, str]] | None = None
    # how many of the case's inputs the model takes, the first ones (None: all); the others are folded into the
    # graph's attributes from the case's values (Selu's alpha and lambda)
    feeds: int | None = None


#: (case, its attributes with the defaults filled in) -> the graph; raises NoLowering where no graph is exact
Build = Callable[[CaseInstance, dict[str, Any]], Graph]


@dataclass(frozen=True)
class Recipe:
    target: str  # the ONNX op(s) it lowers to, as the table says ("Sub+Mul")
    build: Build
    since: int = 1  # the first ONNX opset whose text has the semantics the table states (Softmax-13's axis)


def openvino_attributes(case: CaseInstance) -> dict[str, Any]:
    """The case's attributes, defaults filled in, after the checks OpenVINO's text makes of them and of the
    input types; ``NoLowering`` where OpenVINO rejects the case."""
    schema = ops.entry(case.domain, case.op).schema
    label = f"OpenVINO {case.op}-{case.version}"
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    if unknown:
        raise NoLowering(f"{label} defines no attribute {unknown}: OpenVINO rejects the case, an ONNX model of it "
                         "would be rejected for another reason")
    found: dict[str, Any] = {}
    for attribute in schema.attributes_at(case.version):
        if attribute.name not in case.attributes:
            if attribute.required:
                raise NoLowering(f"{label} requires attribute {attribute.name}: OpenVINO rejects the case")
            found[attribute.name] = attribute.default
            continue
        value = case.attributes[attribute.name]
        kinds = _KINDS.get(attribute.kind, (object,))
        if isinstance(value, bool) != (attribute.kind == "bool") or not isinstance(value, kinds):
            raise NoLowering(f"{label}: {attribute.name}={value!r} is not a {attribute.kind}: OpenVINO rejects it")
        if attribute.values and value not in attribute.values:
            raise NoLowering(f"{label}: {attribute.name}={value!r} is not one of {list(attribute.values)}: "
                             "OpenVINO rejects it")
        found[attribute.name] = value
    allowed = schema.supported_dtypes(case.version)
    free = []  # the inputs of type T (a port of a fixed type, Select's boolean cond, is not)
    for port, dtype in zip(schema.inputs, case.input_dtypes):
        if port.dtype is not None and dtype != port.dtype:
            raise NoLowering(f"{label}: its {port.name} is {port.dtype}, got {dtype}: OpenVINO rejects the case")
        if port.dtype is None:
            if dtype not in allowed:
                raise NoLowering(f"{label} takes no {dtype} (its constraint: {', '.join(allowed)}): OpenVINO "
                                 "rejects the case")
            free.append(dtype)
    if len(set(free)) > 1:
        raise NoLowering(f"{label}: its inputs are of one type T, got {free}: OpenVINO rejects the case")
    return found


def lowering(recipe: Recipe) -> Callable[[CaseInstance], LoweredModel]:
    """The lowering function of one table entry."""

    def lower(case: CaseInstance) -> LoweredModel:
        graph = recipe.build(case, openvino_attributes(case))
        typed = graph.typed if graph.typed is not None else [(n.op_type, 0, case.dtype) for n in graph.nodes]
        opset = opsets.choose(typed, recipe.since)
        feeds = len(case.inputs) if graph.feeds is None else graph.feeds
        model = _model(case, graph, opset, feeds)
        chain = " -> ".join(n.op_type + (attr_text(_attributes(n)) if n.attribute else "") for n in graph.nodes)
        description = (f"openvino {case.op}-{case.version} -> ai.onnx {chain} (opset {opset})"
                       + "".join(f"; {note}" for note in graph.notes))
        return LoweredModel(model, description, feeds, list(graph.notes))

    return lower


def same(op: str, attributes: Any = None) -> Build:
    """One ONNX ``op`` node on the case's inputs; ``attributes(openvino attributes) -> ONNX attributes``."""

    def build(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
        return Graph([node(op, case.input_names, output_name(case), **(attributes(attrs) if attributes else {}))])

    return build


def broadcast(op: str) -> Build:
    """``op`` on two tensors after OpenVINO's ``auto_broadcast``: numpy is ONNX's multidirectional broadcasting
    (both reject shapes that do not broadcast); none and pdpd only where they give numpy's elements."""
    single = same(op)

    def build(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
        notes = broadcast_notes(case, attrs["auto_broadcast"])
        graph = single(case, attrs)
        return Graph(graph.nodes, notes=notes)

    return build


def broadcast_notes(case: CaseInstance, mode: str) -> list[str]:
    a, b = case.input_shapes
    return pair_notes(a, b, mode)


def pair_notes(a: tuple[int, ...], b: tuple[int, ...], mode: str) -> list[str]:
    """B onto A by ``mode``: the notes where it gives numpy's elements, ``NoLowering`` where it does not."""
    if mode == "numpy":
        return []
    if mode == "none":
        if a != b:
            raise NoLowering(f"auto_broadcast none with shapes {list(a)} and {list(b)}: OpenVINO rejects them, "
                             "ONNX broadcasts them numpy-wise")
        return []
    # pdpd: B (its trailing 1s ignored) aligned onto A from axis rank(A) - rank(B), the stripped 1s put back:
    # that is B right-aligned, numpy's alignment; where each of B's dims is 1 or A's, numpy gives A's shape and
    # the same elements. Elsewhere pdpd rejects what numpy may broadcast (B of higher rank, A stretching).
    if len(b) > len(a) or any(d not in (1, n) for d, n in zip(b, a[len(a) - len(b):])):
        raise NoLowering(f"auto_broadcast pdpd rejects B {list(b)} onto A {list(a)} (B's rank at most A's, its "
                         "dims 1 or A's): ONNX broadcasts them numpy-wise")
    return [f"pdpd B {list(b)} onto A {list(a)} = numpy broadcasting"]


def node(op: str, inputs: list[str], output: str, **attributes: Any) -> onnx.NodeProto:
    return helper.make_node(op, inputs, [output], **attributes)


def output_name(case: CaseInstance) -> str:
    return (case.output_names or ["y"])[0]


def _attributes(n: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: helper.get_attribute_value(a) for a in n.attribute}


def _model(case: CaseInstance, graph: Graph, opset: int, feeds: int) -> onnx.ModelProto:
    """The model: the case's inputs fed as they are (their shapes exact), the output's dims symbolic (the runtime's
    shape inference is under test), its rank and type the op's. Checked where the rank is known (ONNX requires an
    output shape; a case the reference rejects may have none, and its model must still reach the runtime)."""
    inputs = [helper.make_tensor_value_info(name, _TYPES[dtype], list(shape))
              for name, dtype, shape in zip(case.input_names[:feeds], case.input_dtypes, case.input_shapes)]
    y = output_name(case)
    rank = output_ranks(case, 1)[0]
    outputs = [helper.make_tensor_value_info(y, _TYPES[output_dtypes(case)[0]], symbolic_dims(y, rank))]
    onnx_graph = helper.make_graph(graph.nodes, "lowered", inputs, outputs, initializer=graph.constants)
    model = helper.make_model_gen_version(onnx_graph, opset_imports=[helper.make_opsetid("", opset)])
    model.producer_name = "conformance-lowering"
    if rank is not None:
        onnx.checker.check_model(model)
    return model
