"""onnxruntime: runs ``ai.onnx`` cases as checked single-node models on one execution provider (CPU default)."""

from __future__ import annotations

import numpy as np

from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.onnx_model import build_model
from conformance.suite.model import CaseInstance

# onnxruntime reports a missing kernel (op/version/type) with these; that is "unsupported", not an error.
_UNSUPPORTED_MARKERS = ("NOT_IMPLEMENTED", "Could not find an implementation", "is not a registered function/op")


class OnnxRuntimeBackend(Backend):
    name = "onnxruntime"
    description = "onnxruntime InferenceSession (ai.onnx cases; --backend=onnxruntime:PROVIDER)"

    def __init__(self, provider: str | None = None):
        import onnxruntime  # noqa: F401  (fail at construction when missing: the backend is not installed)

        self.provider = provider or "CPUExecutionProvider"
        if provider:
            self.name = f"onnxruntime:{provider}"

    def version(self) -> str:
        import onnxruntime

        return onnxruntime.__version__

    def capabilities(self) -> dict[str, list[str]]:
        return {"ai.onnx": ["AveragePool", "GlobalAveragePool"], "provider": [self.provider]}

    def supports(self, case: CaseInstance) -> Support:
        if case.domain != "ai.onnx":
            return Support.no(f"onnxruntime runs ai.onnx models; {case.domain} cases have no ONNX model")
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        import onnxruntime as ort

        model = build_model(case, check=not case.expect_error)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # deterministic and fair under pytest-xdist
        options.log_severity_level = 3
        try:
            session = ort.InferenceSession(model.SerializeToString(), options, providers=[self.provider])
        except Exception as exc:  # onnxruntime raises its own exception types per status
            message = str(exc)
            if any(marker in message for marker in _UNSUPPORTED_MARKERS):
                raise Unsupported(message.strip().splitlines()[0][:500]) from None
            raise
        feeds = dict(zip(case.input_names, inputs))
        return list(session.run(None, feeds))
