"""tract: Sonos' Rust ONNX inference engine through its Python bindings (PyPI ``tract``).

``ai.onnx`` cases run as the harness's single-node model (onnx_model.build_model); OpenVINO and oneDNN cases
through an exact ONNX lowering where one exists (lowering/, ``last_lowering``). tract loads, analyses and
optimises each model (runners/run_tract.py, the same file an exported reproduction runs); prepared models are
kept per content (model_cache.py). Native code: isolated under ``--isolation=auto``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends import lowering
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.export import export_onnx
from conformance.backends.lowering import feed_inputs, onnx_model_for
from conformance.backends.model_cache import ModelCache, content_hash, model_bytes
from conformance.backends.runners.run_tract import load, run_runnable
from conformance.suite.model import CaseInstance

#: Runnables kept per backend instance (a small model prepares in ~1 ms; this saves the load, not much more).
CACHE_SIZE = 16


class TractBackend(Backend):
    name = "tract"
    isolate = True  # a Rust panic across the C ABI aborts the process
    description = "tract (Sonos, Rust) ONNX loader + optimiser via its Python bindings (ai.onnx, lowered cases)"

    def __init__(self) -> None:
        import tract  # noqa: F401  (fail at construction when missing: the backend is not installed)

        self._cache: ModelCache[Any] = ModelCache(CACHE_SIZE)

    def version(self) -> str:
        import tract

        return tract.version()

    @property
    def rejection_types(self) -> tuple[type[BaseException], ...]:  # type: ignore[override]
        """tract's loader, optimiser and runner report every refusal as TractError (its error chain as text)."""
        from tract.bindings import TractError

        return (TractError,)

    def capabilities(self) -> dict[str, list[str]]:
        return lowering.capabilities()

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        self.last_lowering = ""
        model, feeds, self.last_lowering = onnx_model_for(case)
        data = model_bytes(model)
        try:
            runnable = self._cache.get(content_hash(data), lambda: _prepare(data))
            return run_runnable(runnable, feed_inputs(inputs, feeds))
        except NotImplementedError as exc:
            raise Unsupported(str(exc)) from None

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        return export_onnx(case, folder, "run_tract", {})


def _prepare(data: bytes) -> Any:
    import tract

    # tract's bindings load from a path only
    with tempfile.NamedTemporaryFile(suffix=".onnx") as file:
        file.write(data)
        file.flush()
        return load(tract, file.name)
