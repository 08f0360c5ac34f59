"""tract: Sonos' Rust ONNX inference engine through its Python bindings (PyPI ``tract``).

``ai.onnx`` cases run as the harness's single-node model (onnx_model.build_model); OpenVINO and oneDNN cases
through an exact ONNX lowering where one exists (lowering/, ``last_lowering``). tract loads, analyses and
optimises each model (tract/run_tract.py, the same file an exported reproduction runs); prepared models are
kept per content (onnx_base.py); cases run in batches where they can (onnx_batch.py). Native code:
isolated under ``--isolation=auto``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from conformance.backends.onnx_base import OnnxModelBackend
from conformance.backends.onnx_batch import OnnxBatchMixin
from conformance.backends.tract.run_tract import load, run_runnable


class TractBackend(OnnxBatchMixin, OnnxModelBackend):  # batches: one load and optimisation for many cases
    name = "tract"
    isolate = True  # a Rust panic across the C ABI aborts the process
    description = "tract (Sonos, Rust) ONNX loader + optimiser via its Python bindings (ai.onnx, lowered cases)"
    runner = Path(__file__).with_name("run_tract.py")
    #: runnables kept (a small model prepares in ~1 ms; this saves the load, not much more)
    prepared_cache_size = 16

    def __init__(self) -> None:
        import tract  # noqa: F401  (fail at construction when missing: the backend is not installed)

        super().__init__()

    def version(self) -> str:
        import tract

        return tract.version()

    @property
    def rejection_types(self) -> tuple[type[BaseException], ...]:  # type: ignore[override]
        """tract's loader, optimiser and runner report every refusal as TractError (its error chain as text)."""
        from tract.bindings import TractError

        return (TractError,)

    def prepare(self, model: onnx.ModelProto, data: bytes) -> Any:
        import tract

        # tract's bindings load from a path only
        with tempfile.NamedTemporaryFile(suffix=".onnx") as file:
            file.write(data)
            file.flush()
            return load(tract, file.name)

    def execute(self, prepared: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
        return run_runnable(prepared, inputs)
