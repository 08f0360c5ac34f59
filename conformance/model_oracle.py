"""The oracle's side of a case that is a whole ONNX model (an onnx backend test of an op we have no reference
for): how each output is judged, from the op's family (ops/families.py), and the figures its bound needs.

The expected outputs are the test's stored ones (the oracle's ``expected()``: the case's literal outputs); the
``reference`` column checks them against onnx's evaluator. Per output:

- integer, bool and string outputs: ``exact``, whatever the family (nothing to round);
- ``ulp`` outputs: the family's count for the output's dtype;
- ``accumulate`` outputs: K from the inputs (``terms``) and the magnitude: the model run by onnx's evaluator on
  |inputs| (every term's magnitude summed), or |y| where the family says every term is non-negative;
- ``propagate`` outputs: the error of the model's arithmetic propagated node by node (ops/propagate.py), computed
  once with the rules; an output no rounding reaches is ``exact``. Where the walk stops (a node with no rule and no
  body), the stated fallback: the family of the model's loosest node (its subgraphs' too), said in the record.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from conformance.compare.evidence import OutputRule
from conformance.dtypes import dtype_name, floating
from conformance.model import CaseInstance
from conformance.ops import decoded, drawn, propagate
from conformance.ops import terms as node_terms
from conformance.ops.families import LOOSENESS, Accumulate, Family, family_of, loosest, ulps_for


@dataclass(frozen=True)
class Judged:
    """The node whose family judges a whole model, resolved once: its op, its attributes and the family."""

    op: str
    attributes: dict
    family: Family
    note: str = ""  # why the family is a fallback, for the record's text
    #: a ``propagate`` family's error per output (ops/propagate.py; None: exact there), once walked
    errors: tuple | None = None


def judged_node(instance: CaseInstance, model: object = None) -> Judged:
    """The case's own op, unless that op is exact while the model computes more (a multi-node model named after
    one of its plumbing ops, a pytorch module such as Softmin = Neg then Softmax): then the graph's node of the
    loosest family (families.loosest: its rounding bounds the graph's at best), with that node's attributes."""
    import onnx
    from onnx import helper

    if model is None and instance.model is not None:
        model = onnx.load_from_string(instance.model)
    nodes = list(model.graph.node) if model is not None else []
    index, family = loosest(instance.op, [n.op_type for n in nodes], [spec.array for spec in instance.inputs])
    if index is None:
        # the node itself, where the graph has it: a backend test's attributes are its node's, not the case's ({})
        index = next((i for i, n in enumerate(nodes) if n.op_type == instance.op), None)
        if index is None:
            return Judged(instance.op, dict(instance.attributes), family)
    node = nodes[index]
    return Judged(node.op_type, {a.name: helper.get_attribute_value(a) for a in node.attribute}, family)


def output_rules(instance: CaseInstance, expected: list[np.ndarray], judged: Judged | None = None,
                 model: object = None, propagated: list | None = None) -> tuple[OutputRule, ...]:
    """Each output's rule; ``propagated``: a ``propagate`` family's error per output (None: exact there)."""
    judged = judged or judged_node(instance, model)
    family = judged.family
    names = instance.output_names or [f"output{i}" for i in range(len(expected))]
    k, note = terms(instance, judged, model) if family.name == "accumulate" else (1, judged.note)
    rules = []
    for i, (name, value) in enumerate(zip(names, expected)):
        dtype = dtype_name(value.dtype)
        model = family.name if floating(value.dtype) or family.name == "random" else "exact"
        model = "exact" if family.name == "decoded" else model  # its own rule judges (ops/decoded.py)
        if model == "propagate" and (propagated is None or i >= len(propagated) or propagated[i] is None):
            model = "exact"  # no rounding reaches it: data movement of exact values
        rules.append(OutputRule(name=name, label=name, error_model=model, dtype=dtype,
                                ulps=ulps_for(family, dtype) if model == "ulp" else 0.0,
                                window=k if model == "accumulate" else 1,
                                window_note=note if model in ("accumulate", family.name) else "",
                                drawn_from=family.drawn_from if model == "random" else None,
                                custom=_custom(judged, family, i)))
    return tuple(rules)


def _custom(judged: Judged, family: Family, port: int) -> object:
    """An output's own judging rule: a draw's (ops/drawn.py), a decoded image's (ops/decoded.py)."""
    if family.name == "random":
        return drawn.rule_for(judged.op, judged.attributes, port)
    if family.name == "decoded":
        return decoded.Decoded(judged.attributes)
    return None


def _feeds(instance: CaseInstance, proto: object) -> dict[str, np.ndarray]:
    initializers = {t.name for t in proto.graph.initializer}
    names = [i.name for i in proto.graph.input if i.name not in initializers]
    return {name: spec.array for name, spec in zip(names, instance.inputs) if spec.array is not None}


def propagated(instance: CaseInstance, judged: Judged, proto: object) -> tuple[Judged, list | None]:
    """A ``propagate`` family's errors per output (ops/propagate.py); where the walk stops, the judged node with
    the stated fallback family: the loosest of the model's nodes, its subgraphs' included (ONNX's default if that
    is a composition too), and why, for the record."""
    try:
        errors = propagate.errors(proto, _feeds(instance, proto))
        shapes = [np.shape(spec.array) for spec in instance.outputs]
        wrong = [i for i, (e, shape) in enumerate(zip(errors, shapes)) if e is not None and np.shape(e) != shape]
        if not wrong:
            return replace(judged, errors=tuple(errors)), errors
        why = f"the walk's output {wrong[0]} has shape {list(np.shape(errors[wrong[0]]))}, the test's " \
              f"{list(shapes[wrong[0]])}"
    except Exception as exc:  # a node with no rule and no body, or one onnx's evaluator cannot run
        why = f"{type(exc).__name__}: {str(exc)[:200]}" if not isinstance(exc, propagate.CannotPropagate) else str(exc)
    # the other nodes' families: the compositions themselves are what could not be walked
    families = [family_of(op) for op in sorted(_all_ops(proto.graph))]
    family = max((f for f in families if f.name != "propagate"), key=lambda f: LOOSENESS.index(f.name),
                 default=Family("onnx-default"))
    note = f" (fallback: cannot propagate through the model ({why}); judged by its loosest node's family)"
    return Judged(judged.op, judged.attributes, family, note), None


def _all_ops(graph: object) -> set[str]:
    from onnx import AttributeProto

    found = set()
    for node in graph.node:
        found.add(node.op_type)
        for attribute in node.attribute:
            if attribute.type == AttributeProto.GRAPH:
                found |= _all_ops(attribute.g)
    return found


def terms(instance: CaseInstance, judged: Judged, model: object = None) -> tuple[int, str]:
    """(K, a note for the record): the most terms one output element sums, read from the judged node as it runs
    (ops/terms.py: its attributes, every input's shape and value, initializers and Constants included; an
    ``_expanded`` test's body nodes). Where no count can be read, the stated fallback: the largest tensor the
    graph is fed or holds (every rule's K is at most one input's size, plus a bias term)."""
    import onnx

    proto = model if model is not None else onnx.load_from_string(instance.model)
    initializers = {t.name for t in proto.graph.initializer}
    names = [i.name for i in proto.graph.input if i.name not in initializers]
    feeds = {name: spec.array for name, spec in zip(names, instance.inputs) if spec.array is not None}
    found = node_terms.terms(proto, feeds, judged.op)
    if found is not None:
        return max(int(found), 0), ""
    sizes = [math.prod(spec.shape or ()) for spec in instance.inputs]
    sizes += [math.prod(t.dims) for t in proto.graph.initializer]
    fallback = max(sizes, default=1) + 1
    return fallback, f" (fallback: the {judged.op} node's count cannot be read; the largest tensor's size + 1)"


@dataclass(frozen=True)
class WholeModel:
    """What the oracle asks of this module for a whole-model case, in one call: how each output is judged and the
    model's outputs by onnx's evaluator (or why it could not run it)."""

    rules: tuple[OutputRule, ...]
    evaluated: list[np.ndarray] | None
    evaluation_error: str = ""
    judged: Judged | None = None  # the node that judges it (the magnitude's family, a walk's errors)


def whole_model(instance: CaseInstance, inputs: list[np.ndarray], expected: list[np.ndarray]) -> WholeModel:
    # the evaluation first, then the judging node's family, then each output's rule (its dtype named last); the
    # model parsed once for both
    import onnx

    proto = onnx.load_from_string(instance.model)
    try:
        outputs, error = evaluated(instance, [x.copy() for x in inputs], proto), ""
    except Exception as exc:  # the evaluator's own gap or failure: the reference column says which
        outputs, error = None, f"onnx.reference cannot evaluate the model: {type(exc).__name__}: {str(exc)[:300]}"
    judged = judged_node(instance, proto)
    errors = None
    if judged.family.name == "propagate":
        judged, errors = propagated(instance, judged, proto)
    return WholeModel(output_rules(instance, expected, judged, proto, errors), outputs, error, judged)


def _leaf_weights(attributes: dict) -> np.ndarray:
    from onnx import numpy_helper

    found = attributes.get("leaf_weights")
    return numpy_helper.to_array(found) if hasattr(found, "raw_data") or hasattr(found, "dims") else \
        np.asarray(found if found is not None else [0.0])


def evaluated(instance: CaseInstance, inputs: list[np.ndarray], model: object = None) -> list[np.ndarray]:
    """The model's (or ``model``'s: a ModelProto) outputs by onnx's evaluator (``onnx.reference``): what the
    ``reference`` column holds the test's stored outputs against. Raises what the evaluator raises."""
    import onnx
    from onnx.reference import ReferenceEvaluator

    proto = model if model is not None else onnx.load_from_string(instance.model)
    # an old model lists its initializers among the graph's inputs: they are not fed
    initializers = {t.name for t in proto.graph.initializer}
    names = [i.name for i in proto.graph.input if i.name not in initializers]
    return [np.asarray(o) for o in ReferenceEvaluator(proto).run(None, dict(zip(names, inputs)))]


def _absolute(model: bytes) -> object:
    """The model with every floating-point weight (initializer, Constant) made |w|: run on |x| it sums the
    magnitudes of a linear op's terms (weights included, or the sign of a weight would cancel terms)."""
    import onnx
    from onnx import numpy_helper

    proto = onnx.load_from_string(model)

    def absolute(tensor: onnx.TensorProto) -> None:
        array = numpy_helper.to_array(tensor)
        if floating(array.dtype):
            tensor.CopyFrom(numpy_helper.from_array(np.abs(array), tensor.name))

    for tensor in proto.graph.initializer:
        absolute(tensor)
    for node in proto.graph.node:
        if node.op_type == "Constant":
            for attribute in node.attribute:
                if attribute.name == "value":
                    absolute(attribute.t)
    return proto


def magnitude(instance: CaseInstance, inputs: list[np.ndarray], expected: list[np.ndarray],
              judged: Judged | None = None) -> list[np.ndarray] | None:
    """Per output, what bounds the sum of its terms' magnitudes: |y| where every term is non-negative, else the
    model on |inputs| (onnx's evaluator); None where neither can be had (the bound then uses |y| alone, from the
    expected output: judged by outputs.magnitude_floor). A ``propagate`` family's: its walk's errors."""
    judged = judged or judged_node(instance)
    family = judged.family
    if family.name == "propagate":
        errors = list(judged.errors or ()) + [None] * len(expected)
        return [np.zeros(np.shape(e)) if found is None else np.broadcast_to(found, np.shape(e))
                for e, found in zip(expected, errors)]
    rule: Accumulate | None = family.accumulate
    how = rule.magnitude if rule is not None else {"unit": "unit", "input": "input"}.get(family.scale)
    if how is None:
        return None
    if how == "output":
        return [np.abs(np.asarray(e, dtype=np.float64)) for e in expected]
    if how == "unit":
        return [np.ones(np.shape(e)) for e in expected]
    if how == "leaves":  # K trees, each adding one leaf weight of at most the largest |weight|
        weights = np.abs(np.asarray(_leaf_weights(judged.attributes if judged else {}), dtype=np.float64))
        trees = len((judged.attributes if judged else {}).get("tree_roots") or [1])
        return [np.full(np.shape(e), trees * weights.max(initial=0.0)) for e in expected]
    if how == "input":  # elementwise: the first input, broadcast to each output
        x = np.abs(np.asarray(inputs[0], dtype=np.float64))
        try:
            return [np.broadcast_to(x, np.shape(e)) for e in expected]
        except ValueError:
            return None
    try:
        outputs = evaluated(instance, [np.abs(x) if floating(x.dtype) else x for x in inputs],
                            _absolute(instance.model))
    except Exception:  # onnx's evaluator cannot run it: no magnitude, the bound falls back to |y|
        return None
    found = [np.abs(np.asarray(o, dtype=np.float64)) for o in outputs[:len(expected)]]
    if how == "abs-max":
        return [np.full(np.shape(o), o.max(initial=0.0)) for o in found]
    return found
