"""onnxruntime: runs ``ai.onnx`` cases as checked single-node models on one execution provider (CPU default);
OpenVINO and oneDNN cases through an exact ONNX lowering where one exists (lowering/, ``Answer.lowering``).
Sessions are made and run by onnxruntime/run_onnxruntime.py, the same file an exported reproduction runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx

from conformance.backends.discovery import presence
from conformance.backends.onnx_base import OnnxModelBackend
from conformance.backends.onnxruntime.run_onnxruntime import create_session, run_session


class OnnxRuntimeBackend(OnnxModelBackend):
    name = "onnxruntime"
    description = "onnxruntime InferenceSession (ai.onnx cases; --backend=onnxruntime:PROVIDER)"
    runner = Path(__file__).with_name("run_onnxruntime.py")
    #: BITS_TYPES cross as OrtValues holding their bits (run_onnxruntime.run_session); its "not implemented" texts
    #: and exception are the base's defaults (OnnxModelBackend)
    unsupported_types: frozenset[str] = frozenset()
    #: sessions kept: cases that differ only in their values (dtype, attributes and shapes equal, e.g. several
    #: seeds or literal examples of one geometry) build the same model and share one session
    prepared_cache_size = 16
    #: Given to the provider (``provider_options``) and the session (``add_session_config_entry``) of every case.
    provider_options: dict[str, str] = {}
    session_config: dict[str, str] = {}

    @classmethod
    def check_installed(cls) -> None:
        presence.require("onnxruntime", presence.extra("onnxruntime"),
                         extensions=("capi/onnxruntime_pybind11_state",))

    def __init__(self, provider: str | None = None):
        self.check_installed()
        import onnxruntime  # noqa: F401  (installed but failing to import: a broken install, said as it is)

        super().__init__()
        self.provider = provider or "CPUExecutionProvider"
        if provider:
            self.name = f"onnxruntime:{provider}"

    def version(self) -> str:
        import onnxruntime

        return onnxruntime.__version__

    def runtime_capabilities(self) -> dict[str, list[str]]:
        return {"provider": [self.provider]}

    @property
    def rejection_types(self) -> tuple[type[BaseException], ...]:  # type: ignore[override]
        """onnxruntime's status errors raised while a session is built or run (NoSuchFile, EPFail and the like
        are not about the model: they stay errors)."""
        from onnxruntime.capi import onnxruntime_pybind11_state as status

        return (status.Fail, status.InvalidArgument, status.InvalidGraph, status.RuntimeException)

    def prepare(self, model: onnx.ModelProto, data: bytes) -> Any:
        import onnxruntime as ort

        # the model's bytes without the graph name (it carries the case id; onnxruntime's messages name nodes
        # and ops, not the graph)
        return create_session(ort, data, self.provider, self.provider_options, self.session_config)

    def execute(self, prepared: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
        return run_session(prepared, inputs)

    def runner_config(self) -> dict[str, Any]:
        return {"provider": self.provider, "provider_options": dict(self.provider_options),
                "session_config": dict(self.session_config)}
