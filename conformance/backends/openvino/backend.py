"""The ``openvino`` backend: ``ai.onnx`` cases through OpenVINO's ONNX frontend; ``openvino`` cases built with
the Python opset API by their op's builder (builders.py). Both compile for the device (CPU by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.onnx_model import build_model as build_onnx_model
from conformance.backends.openvino import builders, export
from conformance.backends.openvino.runtime import read, run_compiled
from conformance.suite.model import CaseInstance


class OpenVinoBackend(Backend):
    name = "openvino"
    description = "OpenVINO CPU plugin (ai.onnx through the ONNX frontend, openvino cases through the opset API)"
    # native code that segfaults on some valid models (AvgPool-16 without dilations): a worker process per backend
    isolate = True
    #: OpenVINO's validation (shape inference, op creation, compilation) raises RuntimeError
    rejection_types = (RuntimeError,)

    def __init__(self, device: str | None = None):
        import openvino

        self.device = device or "CPU"
        if device:
            self.name = f"openvino:{device}"
        self._core = openvino.Core()

    def version(self) -> str:
        import openvino

        return openvino.get_version()

    def capabilities(self) -> dict[str, list[str]]:
        return {
            "ai.onnx": ops.names("ai.onnx"),  # the ONNX frontend reads the model the harness builds for any of them
            "openvino": builders.capabilities(),
            "device": [self.device],
        }

    def supports(self, case: CaseInstance) -> Support:
        if case.domain == builders.DOMAIN:
            return builders.supports(case)
        if case.domain != "ai.onnx":
            return Support.no(f"openvino runs ai.onnx and openvino cases; {case.domain} cases have no OpenVINO form")
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        if case.domain == builders.DOMAIN:
            model = builders.build_model(case, inputs)
        else:
            model = read(self._core, build_onnx_model(case, check=not case.expect_error).SerializeToString())
        return run_compiled(self._core.compile_model(model, self.device), inputs)

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        if case.domain == builders.DOMAIN:
            return export.opset_model(case, inputs, folder, self.device)
        if case.domain == "ai.onnx":
            return export.onnx_model(case, folder, self.device)
        raise Unsupported(self.supports(case).reason)
