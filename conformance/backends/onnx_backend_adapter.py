"""``--backend=onnx-backend:MODULE``: any module implementing ``onnx.backend.base.Backend`` (prepare/run) runs
the ONNX model the harness builds, so existing ONNX backends plug in without code."""

from __future__ import annotations

import importlib

import numpy as np

from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.onnx_model import build_model
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

    def supports(self, case: CaseInstance) -> Support:
        if case.domain != "ai.onnx":
            return Support.no(f"{self.name} runs ai.onnx models only")
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        model = build_model(case, check=not case.expect_error)
        supports_model = getattr(self.module, "supports_device", None)
        if supports_model is not None and not supports_model("CPU"):
            raise Unsupported(f"{self.module_name} does not support the CPU device")
        prepared = self.module.prepare(model, device="CPU")
        return [np.asarray(out) for out in prepared.run(inputs)]
