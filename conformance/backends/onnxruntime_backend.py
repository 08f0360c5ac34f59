"""onnxruntime: runs ``ai.onnx`` cases as checked single-node models on one execution provider (CPU default);
OpenVINO and oneDNN cases through an exact ONNX lowering where one exists (lowering.py, ``last_lowering``)."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from conformance.backends import lowering
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.lowering import feed_inputs, onnx_model_for
from conformance.suite.model import CaseInstance

#: Sessions kept per backend instance: cases that differ only in their values (dtype, attributes and shapes
#: equal, e.g. several seeds or literal examples of one geometry) build the same model and share one session.
SESSION_CACHE_SIZE = 16

# onnxruntime reports a missing kernel (op/version/type) with these; that is "unsupported", not an error.
_UNSUPPORTED_MARKERS = ("NOT_IMPLEMENTED", "Could not find an implementation", "is not a registered function/op")


class OnnxRuntimeBackend(Backend):
    name = "onnxruntime"
    description = "onnxruntime InferenceSession (ai.onnx cases; --backend=onnxruntime:PROVIDER)"

    def __init__(self, provider: str | None = None):
        import onnxruntime  # noqa: F401  (fail at construction when missing: the backend is not installed)

        self.provider = provider or "CPUExecutionProvider"
        #: Description of the lowering used by the last ``run`` ("" for a native ai.onnx model).
        self.last_lowering = ""
        self._sessions: OrderedDict[bytes, object] = OrderedDict()
        if provider:
            self.name = f"onnxruntime:{provider}"

    def version(self) -> str:
        import onnxruntime

        return onnxruntime.__version__

    def capabilities(self) -> dict[str, list[str]]:
        return {**lowering.capabilities(), "provider": [self.provider]}

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        import onnxruntime as ort

        self.last_lowering = ""
        model, feeds, self.last_lowering = onnx_model_for(case)
        session = self._session(ort, model)
        names = [i.name for i in model.graph.input]
        return list(session.run(None, dict(zip(names, feed_inputs(inputs, feeds)))))

    def _session(self, ort, model):
        """A session for ``model``, shared with earlier cases whose model differs only in the graph's name."""
        # the graph's name carries the case id: without it, the bytes are both the key and the session's model
        # (one serialization; onnxruntime's messages name nodes and ops, not the graph)
        name = model.graph.name
        model.graph.name = ""
        key = model.SerializeToString()
        model.graph.name = name
        session = self._sessions.get(key)
        if session is not None:
            self._sessions.move_to_end(key)
            return session
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # deterministic and fair under pytest-xdist
        options.log_severity_level = 3
        try:
            session = ort.InferenceSession(key, options, providers=[self.provider])
        except Exception as exc:  # onnxruntime raises its own exception types per status
            message = str(exc)
            if any(marker in message for marker in _UNSUPPORTED_MARKERS):
                raise Unsupported(message.strip().splitlines()[0][:500]) from None
            raise
        self._sessions[key] = session
        while len(self._sessions) > SESSION_CACHE_SIZE:
            self._sessions.popitem(last=False)
        return session
