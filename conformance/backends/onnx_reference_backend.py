"""onnx-reference: ``onnx.reference.ReferenceEvaluator`` on the model the harness builds.

A second opinion from the ONNX project's own Python evaluator, not our oracle (reference/ is): its known
divergences (docs/spec-notes.md, docs/backends.md) show up as failures like any backend's. OpenVINO and oneDNN cases
run through an exact ONNX lowering where one exists (lowering/); ``last_lowering`` says which was used. The
evaluation itself is runners/run_onnx_reference.py, the same file an exported reproduction runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends import lowering
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.export import export_onnx
from conformance.backends.lowering import feed_inputs, onnx_model_for
from conformance.backends.runners.run_onnx_reference import evaluate
from conformance.suite.model import CaseInstance


class OnnxReferenceBackend(Backend):
    name = "onnx-reference"
    isa_dependent = False  # pure Python and NumPy: the same kernels on every CPU
    description = "onnx.reference.ReferenceEvaluator (pure Python; ai.onnx cases, others through exact lowering)"
    #: the evaluator validates little; what it does check it raises as RuntimeError ("output shape cannot be
    #: null or negative"). Its IndexError/ValueError/OverflowError from deep inside an op's NumPy code are not a
    #: rejection: they are errors, listed in expectations/onnx-reference.yaml (it accepts invalid models).
    rejection_types = (RuntimeError,)

    def __init__(self) -> None:
        import onnx.reference  # noqa: F401  (fail at construction when onnx is too old to have it)

    def version(self) -> str:
        import onnx

        return onnx.__version__

    def capabilities(self) -> dict[str, list[str]]:
        return lowering.capabilities()

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        self.last_lowering = ""
        model, feeds, self.last_lowering = onnx_model_for(case)
        try:
            return evaluate(model, feed_inputs(inputs, feeds))
        except NotImplementedError as exc:  # a gap onnx.reference declares: "unsupported", with its words
            raise Unsupported(str(exc)) from None

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        return export_onnx(case, folder, "run_onnx_reference", {})
