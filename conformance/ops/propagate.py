"""The error an output of a whole model can legitimately carry, by first-order forward error propagation through
its arithmetic, node by node (the ``propagate`` family, ops/families.py; docs/tolerance.md).

Every value of the graph is carried with its error bound e (>= 0, per element, float64): the graph's inputs,
initializers and constants are exact (the test's data); each node's outputs get the error its rule gives
(ops/propagation_rules.py: the inputs' errors through the node's derivative, plus the node's own rounding by its
family). An op without a rule of its own is replaced by its ONNX function body (``onnx.defs``: the schema's
function at the model's opset, context-dependent ones built for the node's attributes and input types), or by
the body the harness spells from the schema's formula (ops/bodies.py), recursively; If runs its taken branch,
Scan and Loop their body once per iteration. Inside a function body each result is rounded to at least the op's
own type: the body's wider intermediate types (ReduceLogSumExp's float64) are its author's choice, and a runtime
may compute in the op's type; an op whose schema names its intermediate type (``stash_type``) keeps the body's.
A node with neither rule nor body stops the walk (``CannotPropagate`` names it): the caller states its fallback.

The values are onnx's evaluator's (``onnx.reference``, node by node), in the model's own types: they only scale
the bound, so their own rounding does not matter to first order.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from conformance.dtypes import dtype_name, finfo, floating
from conformance.ops import propagation_rules, sampling
from conformance.ops.propagation_rules import Error, Step

__all__ = ["CannotPropagate", "errors"]


class CannotPropagate(Exception):
    """The walk met a node it has no rule and no body for (the message names it)."""


def errors(model: Any, feeds: dict[str, np.ndarray]) -> list[Error]:
    """Per graph output of ``model``, its error bound (None: exact), from the graph inputs' data ``feeds``."""
    from onnx import numpy_helper

    env: dict[str, tuple[Any, Error]] = {t.name: (numpy_helper.to_array(t), None) for t in model.graph.initializer}
    env.update((name, (np.asarray(v), None)) for name, v in feeds.items())
    opsets = {(o.domain or ""): int(o.version) for o in model.opset_import}
    _Walk(opsets).graph(list(model.graph.node), env)
    return [env[o.name][1] if o.name in env else None for o in model.graph.output]


class _Walk:
    def __init__(self, opsets: dict[str, int]) -> None:
        self.opsets = opsets
        self.names = itertools.count()

    def graph(self, nodes: list[Any], env: dict[str, tuple[Any, Error]], opsets: dict[str, int] | None = None,
              least: str | None = None) -> None:
        for node in nodes:
            self.node(node, env, opsets or self.opsets, least)

    def node(self, node: Any, env: dict[str, tuple[Any, Error]], opsets: dict[str, int],
             least: str | None = None) -> None:
        from conformance.ops import bodies

        op, domain = node.op_type, node.domain or ""
        inputs = [env[name] if name else (None, None) for name in node.input]
        if domain in ("", "ai.onnx") and op in _CONTROL:
            _CONTROL[op](self, node, inputs, env, opsets, least)
            return
        rule = RULES.get(op) if domain in ("", "ai.onnx") else None
        if rule is None:
            values = [v for v, _ in inputs]
            body = bodies.spelled(node, values, opsets, self.names)
            inner_least = least
            if body is None:
                body = _function(node, inputs, opsets, self.names)
                inner_least = _coarsest(least, None if _stashes(node, opsets) else _data_type(values))
            if body is None:
                raise CannotPropagate(f"no error rule and no function body for {domain or 'ai.onnx'}::{op}")
            nodes, inner = body
            self.graph(nodes, env, {**opsets, **inner}, inner_least)
            return
        run = _runner(node, opsets)
        values = [v for v, _ in inputs]
        outputs = run(values)
        found = rule(Step(node, values, [e for _, e in inputs], outputs, run, least))
        for name, value, error in zip(node.output, outputs, found):
            if name:
                env[name] = (value, _clean(value, error))

    # control flow: the branch taken, the body once per iteration (values and errors move through as in a graph)
    def if_(self, node: Any, inputs: list, env: dict, opsets: dict[str, int], least: str | None) -> None:
        from onnx import helper

        branches = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        branch = branches["then_branch" if bool(np.asarray(inputs[0][0]).reshape(-1)[0]) else "else_branch"]
        inner = dict(env)
        self.graph(list(branch.node), inner, opsets, least)
        for name, out in zip(node.output, branch.output):
            if name:
                env[name] = inner[out.name]

    def scan(self, node: Any, inputs: list, env: dict, opsets: dict[str, int], least: str | None) -> None:
        from onnx import helper

        if opsets.get("", 1) < 9:  # Scan-8: batched sequences of their own lengths, not walked here
            raise CannotPropagate("Scan before opset 9 (batched, with sequence_lens) is not walked")
        attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        body = attributes["body"]
        scans = int(attributes["num_scan_inputs"])
        states, sequences = inputs[:len(inputs) - scans], inputs[len(inputs) - scans:]
        axes = list(attributes.get("scan_input_axes") or [0] * scans)
        directions = list(attributes.get("scan_input_directions") or [0] * scans)
        steps = np.shape(sequences[0][0])[axes[0]] if sequences else 0
        outputs: list[list[tuple[Any, Error]]] = [[] for _ in range(len(body.output) - len(states))]
        for t in range(steps):
            inner = dict(env)
            for spec, state in zip(body.input, states):
                inner[spec.name] = state
            for spec, (value, error), axis, backwards in zip(body.input[len(states):], sequences, axes, directions):
                at = steps - 1 - t if backwards else t
                inner[spec.name] = (np.take(value, at, axis=axis),
                                    None if error is None else np.take(error, at, axis=axis))
            self.graph(list(body.node), inner, opsets, least)
            results = [inner[o.name] for o in body.output]
            states = results[:len(states)]
            for slot, result in zip(outputs, results[len(states):]):
                slot.append(result)
        out_axes = list(attributes.get("scan_output_axes") or [0] * len(outputs))
        out_directions = list(attributes.get("scan_output_directions") or [0] * len(outputs))
        results = list(states)
        for slices, axis, backwards in zip(outputs, out_axes, out_directions):
            ordered = slices[::-1] if backwards else slices
            values = np.stack([v for v, _ in ordered], axis=axis)
            found = [e for _, e in ordered]
            error = None if all(e is None for e in found) else np.stack(
                [np.zeros(np.shape(v)) if e is None else e for (v, _), e in zip(ordered, found)], axis=axis)
            results.append((values, error))
        for name, result in zip(node.output, results):
            if name:
                env[name] = result


    def loop(self, node: Any, inputs: list, env: dict, opsets: dict[str, int], least: str | None) -> None:
        from onnx import helper

        body = helper.get_attribute_value(next(a for a in node.attribute if a.name == "body"))
        trips = inputs[0][0] if node.input[0] else None
        condition = inputs[1][0] if len(node.input) > 1 and node.input[1] else None
        carried = list(inputs[2:])
        scans: list[list[tuple[Any, Error]]] = [[] for _ in range(len(body.output) - 1 - len(carried))]
        i = 0
        while (trips is None or i < int(np.asarray(trips).reshape(-1)[0])) and (
                condition is None or bool(np.asarray(condition).reshape(-1)[0])):
            inner = dict(env)
            given = [(np.asarray(i, dtype=np.int64), None), (np.asarray(True) if condition is None else
                                                             np.asarray(condition), None), *carried]
            for spec, value in zip(body.input, given):
                inner[spec.name] = value
            self.graph(list(body.node), inner, opsets, least)
            results = [inner[o.name] for o in body.output]
            condition, carried = results[0][0], results[1:1 + len(carried)]
            for slot, result in zip(scans, results[1 + len(carried):]):
                slot.append(result)
            i += 1
        stacked = []
        for slot in scans:
            if not slot:
                raise CannotPropagate("Loop ran no iteration: its scan outputs' shapes are unknown here")
            errors = [e for _, e in slot]
            stacked.append((np.stack([v for v, _ in slot]), None if all(e is None for e in errors) else np.stack(
                [np.zeros(np.shape(v)) if e is None else e for (v, _), e in zip(slot, errors)])))
        for name, result in zip(node.output, [*carried, *stacked]):
            if name:
                env[name] = result


_CONTROL = {"If": _Walk.if_, "Scan": _Walk.scan, "Loop": _Walk.loop}
#: every op's rule: the primitives' (ops/propagation_rules.py) and the sampling ops' (ops/sampling.py)
RULES = {**propagation_rules.RULES, **sampling.RULES}


def _data_type(values: list[Any]) -> str | None:
    """The type of a node's first floating-point input (the op's data type)."""
    for value in values:
        if isinstance(value, np.ndarray) and floating(value.dtype):
            return dtype_name(value.dtype)
    return None


def _coarsest(a: str | None, b: str | None) -> str | None:
    if a is None or b is None:
        return a or b
    return a if finfo(a).nmant <= finfo(b).nmant else b


def _stashes(node: Any, opsets: dict[str, int]) -> bool:
    """The op's schema names the type its intermediate results are kept in (``stash_type``)."""
    import onnx

    try:
        schema = onnx.defs.get_schema(node.op_type, opsets.get(node.domain or "", 1), node.domain or "")
    except Exception:  # no schema: nothing named
        return False
    return "stash_type" in schema.attributes


def _clean(value: Any, error: Error) -> Error:
    """An error where the value is finite (an infinity or NaN is compared as a value: no bound), NaN from 0·inf
    read as 0 (an exact factor times an infinite magnitude moves nothing)."""
    if error is None or not isinstance(value, np.ndarray) or not floating(value.dtype):
        return None
    error = np.broadcast_to(np.asarray(error, dtype=np.float64), value.shape)
    finite = np.isfinite(np.asarray(value, dtype=np.float64))
    return np.where(finite, np.nan_to_num(error, nan=0.0, posinf=np.inf), 0.0)


def _runner(node: Any, opsets: dict[str, int]):
    """The node by onnx's evaluator, on any inputs (its values, its errors, |values|, ones)."""
    from onnx import TypeProto, helper
    from onnx.reference import ReferenceEvaluator

    names = list(node.input)
    # a graph, not the node alone: onnx's evaluator runs a NodeProto at the latest opset, whatever it is told
    graph = helper.make_graph([node], "node", [helper.make_value_info(n, TypeProto()) for n in names if n],
                              [helper.make_value_info(n, TypeProto()) for n in node.output if n])
    evaluator = ReferenceEvaluator(graph, opsets={**opsets, node.domain or "": opsets.get(node.domain or "", 1)})

    def run(values: list[Any]) -> list[Any]:
        feeds = {name: value for name, value in zip(names, values) if name}
        found = evaluator.run(None, feeds)
        return [np.asarray(v) if not isinstance(v, list) else v for v in found]

    return run


def _function(node: Any, inputs: list, opsets: dict[str, int], names: itertools.count
              ) -> tuple[list[Any], dict[str, int]] | None:
    """The node's ONNX function body at the model's opset (the latest function version not after it), with the
    node's attributes and defaults bound and its tensors renamed apart; None when the op has none."""
    import onnx
    from onnx import FunctionProto, helper
    from onnx.backend.test.case.node import function_expand_helper

    domain = node.domain or ""
    version = opsets.get(domain, opsets.get("", 1))
    try:
        schema = onnx.defs.get_schema(node.op_type, version, domain)
    except Exception:  # onnx knows no such op at this opset
        return None
    static = list(schema.function_opset_versions)
    dependent = list(schema.context_dependent_function_opset_versions)
    candidates = sorted(static + dependent)
    if not candidates:
        return None
    chosen = max([v for v in candidates if v <= opsets.get("", version)], default=candidates[0])
    bound = onnx.NodeProto()
    bound.CopyFrom(node)
    given = {a.name for a in node.attribute}
    for name, attribute in schema.attributes.items():
        if name not in given and attribute.default_value.name:
            bound.attribute.extend([attribute.default_value])
    if chosen in dependent:
        types = [helper.make_tensor_type_proto(helper.np_dtype_to_tensor_dtype(np.asarray(v).dtype),
                                               list(np.shape(v))).SerializeToString()
                 if v is not None else onnx.TypeProto().SerializeToString() for v, _ in inputs]
        text = schema.get_context_dependent_function_with_opset_version(chosen, bound.SerializeToString(), types)
    else:
        text = schema.get_function_with_opset_version(chosen)
    function = FunctionProto()
    function.ParseFromString(text)
    prefix = f"{node.op_type}_{next(names)}_"
    inner = {(o.domain or ""): int(o.version) for o in function.opset_import}
    return function_expand_helper(bound, function, prefix), inner
