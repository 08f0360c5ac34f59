"""The ``openvino`` backend: ``ai.onnx`` cases through OpenVINO's ONNX frontend; ``openvino`` cases built with
the Python opset API by their op's builder (builders.py); ``onednn`` cases through their exact ONNX lowering
(lowering/, as on every ONNX backend) and the ONNX frontend. All compile for the device (CPU by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance import ops
from conformance.backends import openvino as openvino_package
from conformance.backends.base import Answer, Backend, Support, Unsupported
from conformance.backends.batch_answer import Batched
from conformance.backends.models import lowering, whole
from conformance.backends.models.single_node import build_model as build_onnx_model
from conformance.backends.openvino import batch, builders, export
from conformance.backends.openvino.messages import case_messages
from conformance.backends.openvino.runtime import compile_model, read, run_compiled
from conformance.model import CaseInstance


class OpenVinoBackend(Backend):
    name = "openvino"
    description = "OpenVINO CPU plugin (ai.onnx through the ONNX frontend, openvino cases through the opset API)"
    # native code that segfaults on some valid models (AvgPool-16 without dilations): a worker process per backend
    isolate = True
    #: OpenVINO's validation (shape inference, op creation, compilation) raises RuntimeError
    rejection_types = (RuntimeError,)
    #: whole-corpus run, -n 2, openvino column alone: 15.1 s at 32 cases per batch, 12.0 s at 96, 12.2 s at 256
    batch_size = 96
    preload_modules = ("openvino",)

    @classmethod
    def check_installed(cls) -> None:
        openvino_package.check_installed()

    def __init__(self, device: str | None = None):
        self.check_installed()
        import openvino

        self.device = device or "CPU"
        if device:
            self.name = f"openvino:{device}"
        self._core = openvino.Core()

    def version(self) -> str:
        import openvino

        return openvino.get_version()

    def capabilities(self) -> dict[str, list[str]]:
        lowered = [line for line in lowering.capabilities()["lowered"] if not line.startswith(builders.DOMAIN)]
        return {
            "ai.onnx": ops.names("ai.onnx"),  # the ONNX frontend reads the model the harness builds for any of them
            "openvino": builders.capabilities(),
            "lowered": lowered,  # the other specs' ops (oneDNN's), through their exact ONNX lowering
            "device": [self.device],
        }

    def supports(self, case: CaseInstance) -> Support:
        if whole.is_model(case):  # an onnx backend test: its own model through the ONNX frontend
            return whole.support(case, self.name)
        if case.domain == builders.DOMAIN:
            return builders.supports(case)
        # ai.onnx natively; another spec's op where an exact ONNX lowering exists (its geometry checked at run)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> Answer:
        with case_messages():  # a rejection's text without OpenVINO's process-wide node counter (messages.py)
            built = self._build(case, inputs)
            return Answer(run_compiled(compile_model(self._core, built.model, self.device), built.feeds),
                          built.lowering)

    def run_batch(self, instances: list[CaseInstance], inputs_list: list[list[np.ndarray]]) -> list[Batched | None]:
        """Many cases' models compiled as one (batch.py): the same models ``run`` compiles one by one."""
        return batch.run_batch(self._core, self.device, self._build, self.supports, instances, inputs_list)

    def _build(self, case: CaseInstance, inputs: list[np.ndarray]) -> batch.Built:
        """The model ``run`` compiles for the case, the arrays it is fed, and the lowering it went through."""
        if whole.is_model(case):
            return batch.Built(read(self._core, case.model), inputs)
        if case.domain == builders.DOMAIN:
            return batch.Built(builders.build_model(case, inputs), builders.parameter_feeds(case, inputs))
        if case.domain == "ai.onnx":
            return batch.Built(read(self._core, build_onnx_model(case, check=not case.expect_error)
                                    .SerializeToString()), inputs)
        onnx_model, feeds, lowered = lowering.onnx_model_for(case)
        return batch.Built(read(self._core, onnx_model.SerializeToString()), lowering.feed_inputs(inputs, feeds),
                           lowered)

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        if case.domain == builders.DOMAIN:
            return export.opset_model(case, inputs, folder, self.device)
        support = self.supports(case)
        if not support:
            raise Unsupported(support.reason)
        return export.onnx_model(case, folder, self.device)  # ai.onnx, or another spec's case lowered to it
