"""Batched execution for an ONNX-model backend (batching/dispatch.py): many cases' ONNX models side by side in one
graph, prepared once (tract's load, analysis and optimisation: ~20 ms per model, whatever its size), run once.

Each case's model is the one ``run`` prepares alone (onnx_model_for: the single node, or its exact lowering);
its names get a per-case prefix so that the subgraphs share no value, node or initializer. One batch holds models
of one opset import, IR version and input dtype only: the graph a runtime sees differs from the single-case one
in size only. A case whose model cannot be built, or a group that fails to prepare or run, gets no answer: it
runs alone, so its record is the one it would have had without batching.
"""

from __future__ import annotations

import numpy as np
import onnx

from conformance.backends.batch_answer import Batched
from conformance.backends.models.cache import model_bytes
from conformance.backends.models.lowering import feed_inputs, onnx_model_for
from conformance.model import CaseInstance


class OnnxBatchMixin:
    """``run_batch`` for a backend built on ``OnnxModelBackend`` (its ``supports``, ``prepare`` and
    ``execute``); a backend opts in by listing this class first among its bases."""

    def run_batch(self, instances: list[CaseInstance], inputs_list: list[list[np.ndarray]]) -> list[Batched | None]:
        results: list[Batched | None] = [None] * len(instances)
        groups: dict[tuple, list[tuple[int, onnx.ModelProto, list[np.ndarray], str]]] = {}
        for index, (case, inputs) in enumerate(zip(instances, inputs_list)):
            # a whole-model case (an onnx backend test) is never batched: its model runs alone, as given
            if case.expect_error or case.model is not None or not self.supports(case):  # type: ignore[attr-defined]
                continue
            try:
                model, feeds, lowered = onnx_model_for(case)
                fed = feed_inputs(inputs, feeds)
            except Exception:
                continue  # the same failure is raised (and judged) when the case runs alone
            if len(fed) != len(model.graph.input):
                continue  # fed otherwise than one array per graph input: leave it to run()
            key = (tuple((o.domain, o.version) for o in model.opset_import), model.ir_version, case.dtype)
            groups.setdefault(key, []).append((index, model, fed, lowered))
        for members in groups.values():
            self._answer(members, results)
        return results

    def _answer(self, members: list[tuple[int, onnx.ModelProto, list[np.ndarray], str]],
                results: list[Batched | None]) -> None:
        if len(members) < 2:
            return
        try:
            merged = merge([m for _, m, _, _ in members])
            outputs = self.execute(self.prepare(merged, model_bytes(merged)),  # type: ignore[attr-defined]
                                   [a for _, _, fed, _ in members for a in fed])
        except Exception:
            # a batch the runtime refuses or fails on is no case's: one refused model would cost the whole batch,
            # so each half is tried on its own; what is left runs alone
            if len(members) >= 4:
                self._answer(members[:len(members) // 2], results)
                self._answer(members[len(members) // 2:], results)
            return
        if len(outputs) != sum(len(m.graph.output) for _, m, _, _ in members):
            return  # not one output per declared output: trust none of them
        start = 0
        for index, model, _, lowered in members:
            count = len(model.graph.output)
            results[index] = Batched(list(outputs[start:start + count]), lowered)
            start += count


def merge(models: list[onnx.ModelProto]) -> onnx.ModelProto:
    """One model holding every model's graph, each renamed with its own prefix (``c0_``, ``c1_``, ...); inputs
    and outputs in the models' order."""
    from onnx import compose

    graphs = [compose.add_prefix(m, f"c{i}_").graph for i, m in enumerate(models)]
    graph = onnx.helper.make_graph(
        [n for g in graphs for n in g.node], "conformance-batch",
        [v for g in graphs for v in g.input], [v for g in graphs for v in g.output],
        initializer=[t for g in graphs for t in g.initializer],
        value_info=[v for g in graphs for v in g.value_info],
    )
    first = models[0]
    return onnx.helper.make_model(graph, opset_imports=list(first.opset_import), ir_version=first.ir_version)
