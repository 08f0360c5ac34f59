"""onnx-reference: ``onnx.reference.ReferenceEvaluator`` on the model the harness builds.

A second opinion from the ONNX project's own Python evaluator, not our oracle (reference/ is): its known
divergences (FINDINGS.md, docs/backends.md) show up as failures like any backend's. OpenVINO and oneDNN cases
run through an exact ONNX lowering where one exists (lowering.py); ``last_lowering`` says which was used.
"""

from __future__ import annotations

import numpy as np

from conformance.backends import lowering
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.lowering import feed_inputs, onnx_model_for
from conformance.suite.model import CaseInstance


class OnnxReferenceBackend(Backend):
    name = "onnx-reference"
    description = "onnx.reference.ReferenceEvaluator (pure Python; ai.onnx cases, others through exact lowering)"

    def __init__(self) -> None:
        import onnx.reference  # noqa: F401  (fail at construction when onnx is too old to have it)

        #: Description of the lowering used by the last ``run`` ("" for a native ai.onnx model).
        self.last_lowering = ""

    def version(self) -> str:
        import onnx

        return onnx.__version__

    def capabilities(self) -> dict[str, list[str]]:
        return lowering.capabilities()

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        from onnx.reference import ReferenceEvaluator

        self.last_lowering = ""
        model, feeds, lowering = onnx_model_for(case)
        self.last_lowering = lowering
        try:
            evaluator = ReferenceEvaluator(model)
        except NotImplementedError as exc:
            raise Unsupported(f"onnx.reference has no implementation: {exc}") from None
        names = [i.name for i in model.graph.input]
        try:
            outputs = evaluator.run(None, dict(zip(names, feed_inputs(inputs, feeds))))
        except (AssertionError, NotImplementedError) as exc:
            # onnx.reference states its gaps with asserts ("ceil_mode is not supported with auto_pad"): a
            # limitation it declares is "unsupported"; any other failure stays an error.
            if "not supported" in str(exc) or isinstance(exc, NotImplementedError):
                raise Unsupported(f"onnx.reference: {exc}") from None
            raise
        return [np.asarray(out) for out in outputs]
