"""``--backend=onnx-backend:MODULE``: any module implementing ``onnx.backend.base.Backend`` (prepare/run) runs
the ONNX model the harness builds, so existing ONNX backends plug in without code."""

from __future__ import annotations

import importlib

import numpy as np

from conformance.backends import lowering
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.lowering import feed_inputs, onnx_model_for
from conformance.suite.model import CaseInstance


class OnnxBackendAdapter(Backend):
    def __init__(self, module: str):
        if not module:
            raise ValueError("onnx-backend needs a module: --backend=onnx-backend:package.module")
        self.module_name = module
        self.module = importlib.import_module(module)
        self.name = f"onnx-backend:{module}"
        self.description = f"onnx.backend.base.Backend implemented by {module}"
        self.last_lowering = ""

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
        supports_model = getattr(self.module, "supports_device", None)
        if supports_model is not None and not supports_model("CPU"):
            raise Unsupported(f"{self.module_name} does not support the CPU device")
        prepared = self.module.prepare(model, device="CPU")
        return [np.asarray(out) for out in prepared.run(feed_inputs(inputs, feeds))]
