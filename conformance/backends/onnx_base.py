"""The base of every backend that runs the ONNX model the harness builds: onnxruntime, tract, onnx-reference,
``onnx-backend:MODULE`` and IREE.

``ai.onnx`` cases run as the single-node model (models/single_node.build_model); OpenVINO and oneDNN cases through an
exact ONNX lowering where one exists (models/lowering/, ``Answer.lowering``). What differs per runtime is two steps:
``prepare`` turns the model into what the runtime runs (a session, an optimised plan, a compiled module), kept
per model content in one cache (models/cache.py: cases that differ only in their values share it), and
``execute`` runs it on the inputs. Each runtime is a package holding its backend and its runner script
(``run_<runtime>.py``: the code the backend runs with, and the same file an exported reproduction runs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx

from conformance.backends.base import Answer, Backend, Support, Unsupported
from conformance.backends.export import export_onnx
from conformance.backends.models import lowering
from conformance.backends.models.cache import ModelCache, content_hash, model_bytes
from conformance.backends.models.lowering import feed_inputs, onnx_model_for
from conformance.model import CaseInstance


class OnnxModelBackend(Backend):
    #: the runner script beside the backend (``Path(__file__).with_name("run_<runtime>.py")``; a ``str`` path is
    #: accepted, a bare name is not: export() then says so, naming this attribute)
    runner: Path | str = Path()
    #: prepared models kept per backend instance (0: none kept, e.g. an evaluator with nothing to prepare)
    prepared_cache_size: int = 16

    def __init__(self) -> None:
        self._prepared: ModelCache[Any] = ModelCache(self.prepared_cache_size)

    def capabilities(self) -> dict[str, list[str]]:
        return {**lowering.capabilities(), **self.runtime_capabilities()}

    def runtime_capabilities(self) -> dict[str, list[str]]:
        """What ``conformance backends`` shows beside the ops (provider, target, device)."""
        return {}

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> Answer:
        model, feeds, lowered = onnx_model_for(case)
        try:
            if self.prepared_cache_size:
                data = model_bytes(model)
                prepared = self._prepared.get(content_hash(data), lambda: self.prepare(model, data))
            else:
                prepared = self.prepare(model, b"")
            return Answer(self.execute(prepared, feed_inputs(inputs, feeds)), lowered)
        except NotImplementedError as exc:  # a gap the runtime declares: "unsupported", in its words
            raise Unsupported(str(exc)) from None

    def prepare(self, model: onnx.ModelProto, data: bytes) -> Any:
        """What the runtime runs, from the model and its bytes without the graph name (``b""`` when nothing is
        cached). Raises the runtime's rejection for a model it refuses. Default: the model itself."""
        return model

    def execute(self, prepared: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
        raise NotImplementedError(f"{type(self).__name__} does not execute models")

    def runner_config(self) -> dict[str, Any]:
        """What the reproduction's runner needs besides the model (provider, module)."""
        return {}

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        return export_onnx(case, folder, self.runner, self.runner_config(), owner=type(self).__name__)
