"""Whole-model cases for the family tests: a graph and its stored outputs, judged as a backend test is (the
oracle's evidence, then the verdict's figures). Importable by module name from any test folder (conftest.py)."""

from __future__ import annotations

import numpy as np
from onnx import helper
from onnx.reference import ReferenceEvaluator

from conformance.dtypes import dtype_name
from conformance.model import Case, TensorSpec
from conformance.oracle import oracle_for
from conformance.pipeline.verdict import judge_outputs
from conformance.suite.expand import expand


def graph_case(nodes: list, inputs: dict[str, np.ndarray], outputs: dict[str, np.ndarray], op: str,
               opsets: dict[str, int] | None = None, name: str = "") -> Case:
    """A case that is the model of ``nodes`` (named after ``op``), fed ``inputs``, storing ``outputs``."""
    opsets = opsets or {"": 18}
    graph = helper.make_graph(
        nodes, name or f"test_{op.lower()}",
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
         for n, a in inputs.items()],
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), None)
         for n, a in outputs.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets.items()])
    model.ir_version = 10
    spec = [TensorSpec(name=n, shape=a.shape, dtype=dtype_name(a.dtype), array=a) for n, a in inputs.items()]
    first = next(iter(inputs.values()))
    domain = nodes[0].domain or "ai.onnx" if nodes else "ai.onnx"
    return Case(id=name or f"test_{op.lower()}", op=op, domain=domain, versions=(opsets.get(nodes[0].domain, 18),),
                source="onnx-example", attributes={}, inputs=tuple(spec),
                outputs=tuple(TensorSpec(name=n, shape=a.shape, dtype=dtype_name(a.dtype), array=a)
                              for n, a in outputs.items()),
                dtypes=(dtype_name(first.dtype),), model=model.SerializeToString())


def node_case(op: str, inputs: dict[str, np.ndarray], outputs: dict[str, np.ndarray], opset: int = 18,
              domain: str = "", **attributes) -> Case:
    """A single ``op`` node's model (as onnx's node tests are)."""
    node = helper.make_node(op, list(inputs), list(outputs), domain=domain, **attributes)
    opsets = {"": opset} if not domain else {"": 18, domain: opset}
    return graph_case([node], inputs, outputs, op, opsets)


def judge(case: Case, *actual: np.ndarray) -> dict:
    """The verdict's figures of ``actual`` (one array per output) against the case's stored outputs."""
    instance = expand(case)[0]
    oracle = oracle_for(instance)
    expected = oracle.expected()
    return judge_outputs(oracle.evidence(len(expected)), expected, list(actual), "fake")


def allowed(case: Case) -> list[np.ndarray]:
    """Per output, the bound each element is allowed (the propagated error's 2e + 1 ulp, 0 where exact)."""
    from conformance.compare.outputs import policies

    instance = expand(case)[0]
    oracle = oracle_for(instance)
    expected = oracle.expected()
    evidence = oracle.evidence(len(expected))
    magnitude = evidence.magnitude() or [None] * len(expected)
    return [policy.bound(e, m) if policy is not None else None
            for policy, e, m in zip(policies(evidence, "fake"), expected, magnitude)]


def both(op: str, inputs: dict[str, np.ndarray], outputs: list[str], opset: int, domain: str = "",
         **attributes) -> tuple:
    """The case storing the float64 evaluation (rounded to float32), and onnx's evaluator in float32."""
    def run(feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        node = helper.make_node(op, list(feeds), outputs, domain=domain, **attributes)
        opsets = [helper.make_opsetid("", opset if not domain else 18)] + (
            [helper.make_opsetid(domain, 1)] if domain else [])
        graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(n, 0, None) for n in feeds],
                                  [helper.make_tensor_value_info(n, 0, None) for n in outputs])
        return [np.asarray(v) for v in ReferenceEvaluator(helper.make_model(graph, opset_imports=opsets)).run(
            None, feeds)]

    wide = {n: a.astype(np.float64) if a.dtype == np.float32 else a for n, a in inputs.items()}
    stored = [v.astype(np.float32) if v.dtype == np.float64 else v for v in run(wide)]
    case = node_case(op, inputs, dict(zip(outputs, stored)), opset=opset, domain=domain, **attributes)
    # onnx's Adam returns float64 for float32 inputs: the runtime's outputs in the stored types
    return case, [v.astype(s.dtype) for v, s in zip(run(inputs), stored)]


def planted_fails(case: Case, runtime: list[np.ndarray]) -> None:
    """A relative 5e-4 change of each float32 output's largest element fails."""
    for index, value in enumerate(runtime):
        if value.dtype != np.float32:
            continue
        planted = [v.copy() for v in runtime]
        flat = planted[index].reshape(-1)
        at = int(np.argmax(np.abs(flat)))
        flat[at] *= np.float32(1 + 5e-4)
        judged = judge(case, *planted)
        assert judged["status"] == "fail", (index, judged["tolerance"])
