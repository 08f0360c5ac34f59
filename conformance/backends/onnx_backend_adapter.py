"""``--backend=onnx-backend:MODULE``: any module implementing ``onnx.backend.base.Backend`` (prepare/run) runs
the ONNX model the harness builds, so existing ONNX backends plug in without code. The call itself is
runners/run_onnx_backend.py, which an exported reproduction runs too."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends import lowering
from conformance.backends.base import NOT_REJECTIONS, Backend, Rejected, Support, Unsupported
from conformance.backends.export import export_onnx
from conformance.backends.lowering import feed_inputs, onnx_model_for
from conformance.backends.runners.run_onnx_backend import run_prepared
from conformance.suite.model import CaseInstance


class OnnxBackendAdapter(Backend):
    def __init__(self, module: str):
        if not module:
            raise ValueError("onnx-backend needs a module: --backend=onnx-backend:package.module")
        self.module_name = module
        self.module = importlib.import_module(module)
        self.name = f"onnx-backend:{module}"
        self.description = f"onnx.backend.base.Backend implemented by {module}"

    def version(self) -> str:
        top = importlib.import_module(self.module_name.split(".")[0])
        return str(getattr(top, "__version__", "unknown"))

    def capabilities(self) -> dict[str, list[str]]:
        return lowering.capabilities()

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        self.last_lowering = ""
        model, feeds, self.last_lowering = onnx_model_for(case)
        try:
            return run_prepared(self.module, model, feed_inputs(inputs, feeds))
        except NotImplementedError as exc:
            raise Unsupported(str(exc)) from None
        except NOT_REJECTIONS:
            raise  # a module without prepare(), a library that did not load, no memory: never a rejection
        except Exception as exc:
            # onnx.backend defines no error types: what the module's prepare/run raise is its rejection
            raise Rejected(f"{type(exc).__name__}: {exc}") from exc

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        """model.onnx and a runner importing the same module: the reproduction needs it installed (else the
        script exits 2, "cannot run here")."""
        return export_onnx(case, folder, "run_onnx_backend", {"module": self.module_name})
