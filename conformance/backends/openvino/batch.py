"""Batched execution for the OpenVINO backends (batching/dispatch.py): compile one ``openvino.Model`` holding many
cases' models side by side, run it once, and split its outputs per case.

``compile_model`` costs 40-50 ms per model on the CPU plugin whatever the model's size, against well under a
millisecond for a pooling node's inference: one compilation for a batch of cases is most of the saving.

Each case's model is built exactly as the backend builds it alone (the same builder, reader and checks); only
its Parameters and Results are then gathered into one model. The subgraphs share no node, so the plugin computes
each one as it computes the model of that case alone. What could still differ in a bigger graph is what the
plugin decides per model rather than per node, which is about element types: a batch holds one input element
type only (cases of other types compile in their own batch). A case whose model cannot be built, or a group
whose merged model fails to compile or run, gets no answer here: it runs alone, so its record (an error, a
rejection, a crash) is the one it would have had without batching. A whole-model case (an onnx backend test) is
read by the ONNX frontend as it is alone and batched with other whole models only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.backends.batch_answer import Batched
from conformance.backends.openvino.runtime import F32, compile_model, run_compiled
from conformance.model import CaseInstance


@dataclass
class Built:
    """One case's model as the backend would compile it alone, the arrays it feeds, its lowering text and the IR
    text it was read from (openvino-ir)."""

    model: Any
    feeds: list[np.ndarray]
    lowering: str = ""
    ir: str = ""


#: (case, inputs) -> the case's Built model; raises for a case that cannot be built (it then runs alone).
BuildFn = Callable[[CaseInstance, list[np.ndarray]], Built]


def run_batch(core: Any, device: str, build: BuildFn, supports: Callable[[CaseInstance], Any],
              instances: list[CaseInstance], inputs_list: list[list[np.ndarray]],
              precision: str | None = F32) -> list[Batched | None]:
    """One answer per instance: ``Batched`` where its group's merged model ran, ``None`` otherwise."""
    results: list[Batched | None] = [None] * len(instances)
    groups: dict[tuple[str, bool], list[tuple[int, Built]]] = {}
    for index, (case, inputs) in enumerate(zip(instances, inputs_list)):
        if case.expect_error or not supports(case):
            continue  # a negative or unsupported case is never batched: its own path decides its record
        whole = case.model is not None
        if whole and any(np.asarray(x).dtype.kind == "V" for x in inputs):
            continue  # float8, int4 & co.: the Python API is not fed them (run_compiled refuses them alone)
        try:
            built = build(case, inputs)
        except Exception:
            continue  # the same exception will be raised (and judged) when the case runs alone
        # whole models (onnx backend tests, read as given by the ONNX frontend) batch among themselves
        groups.setdefault((case.dtype, whole), []).append((index, built))
    for members in groups.values():
        _answer(core, device, members, results, precision)
    return results


def _answer(core: Any, device: str, members: list[tuple[int, Built]], results: list[Batched | None],
            precision: str | None = F32) -> None:
    if len(members) < 2:
        return  # nothing to share: the case runs alone, through run()
    try:
        outputs = _run_merged(core, device, [built for _, built in members], precision)
    except Exception:
        # a compile or inference failure of the batch is no case's: one case the plugin refuses (a compile error
        # nobody listed yet) would cost the whole batch, so each half is tried on its own; what is left runs alone
        if len(members) >= 4:
            half = len(members) // 2
            _answer(core, device, members[:half], results)
            _answer(core, device, members[half:], results)
        return
    for (index, built), case_outputs in zip(members, outputs):
        results[index] = Batched(case_outputs, built.lowering)


def _run_merged(core: Any, device: str, members: list[Built], precision: str | None) -> list[list[np.ndarray]]:
    import openvino

    parameters, results, feeds, counts = [], [], [], []
    for built in members:
        params = list(built.model.get_parameters())
        parameters += params
        results += list(built.model.get_results())
        # a Built's feeds are its model's Parameters' arrays, in order (constants are baked in)
        feeds += built.feeds[:len(params)]
        counts.append(len(built.model.outputs))
    merged = openvino.Model(results, parameters, "conformance-batch")
    outputs = run_compiled(compile_model(core, merged, device, precision), feeds)
    split, start = [], 0
    for count in counts:
        split.append(list(outputs[start:start + count]))
        start += count
    return split
