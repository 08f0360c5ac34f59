"""onnxruntime: runs ``ai.onnx`` cases as checked single-node models on one execution provider (CPU default);
OpenVINO and oneDNN cases through an exact ONNX lowering where one exists (lowering/, ``last_lowering``).
Sessions are made and run by runners/run_onnxruntime.py, the same file an exported reproduction runs."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends import lowering
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.export import export_onnx
from conformance.backends.lowering import feed_inputs, onnx_model_for
from conformance.backends.runners.run_onnxruntime import create_session, run_session
from conformance.suite.model import CaseInstance

#: Sessions kept per backend instance: cases that differ only in their values (dtype, attributes and shapes
#: equal, e.g. several seeds or literal examples of one geometry) build the same model and share one session.
SESSION_CACHE_SIZE = 16


class OnnxRuntimeBackend(Backend):
    name = "onnxruntime"
    description = "onnxruntime InferenceSession (ai.onnx cases; --backend=onnxruntime:PROVIDER)"
    #: Given to the provider (``provider_options``) and the session (``add_session_config_entry``) of every case.
    provider_options: dict[str, str] = {}
    session_config: dict[str, str] = {}

    def __init__(self, provider: str | None = None):
        import onnxruntime  # noqa: F401  (fail at construction when missing: the backend is not installed)

        self.provider = provider or "CPUExecutionProvider"
        self._sessions: OrderedDict[bytes, object] = OrderedDict()
        if provider:
            self.name = f"onnxruntime:{provider}"

    def version(self) -> str:
        import onnxruntime

        return onnxruntime.__version__

    def capabilities(self) -> dict[str, list[str]]:
        return {**lowering.capabilities(), "provider": [self.provider]}

    @property
    def rejection_types(self) -> tuple[type[BaseException], ...]:  # type: ignore[override]
        """onnxruntime's status errors raised while a session is built or run (NoSuchFile, EPFail and the like
        are not about the model: they stay errors)."""
        from onnxruntime.capi import onnxruntime_pybind11_state as status

        return (status.Fail, status.InvalidArgument, status.InvalidGraph, status.RuntimeException)

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        self.last_lowering = ""
        model, feeds, self.last_lowering = onnx_model_for(case)
        return run_session(self._session(model), feed_inputs(inputs, feeds))

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        return export_onnx(case, folder, "run_onnxruntime", {"provider": self.provider,
                                                            "provider_options": dict(self.provider_options),
                                                            "session_config": dict(self.session_config)})

    def _session(self, model):
        """A session for ``model``, shared with earlier cases whose model differs only in the graph's name."""
        import onnxruntime as ort

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
        try:
            session = create_session(ort, key, self.provider, self.provider_options, self.session_config)
        except NotImplementedError as exc:
            raise Unsupported(str(exc)) from None
        self._sessions[key] = session
        while len(self._sessions) > SESSION_CACHE_SIZE:
            self._sessions.popitem(last=False)
        return session
