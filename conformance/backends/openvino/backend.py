"""The ``openvino`` backend: ``ai.onnx`` cases through OpenVINO's ONNX frontend; ``openvino`` cases built with
the Python opset API by their op's builder (builders.py); ``onednn`` cases through their exact ONNX lowering
(lowering/, as on every ONNX backend) and the ONNX frontend. All compile for the device (CPU by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Support, Unsupported
from conformance.backends.models import lowering, whole
from conformance.backends.models.single_node import build_model as build_onnx_model
from conformance.backends.openvino import batch, builders, export
from conformance.backends.openvino.compiled import CompiledOpenVino
from conformance.backends.openvino.runtime import F32, default_precision, read
from conformance.model import CaseInstance


class OpenVinoBackend(CompiledOpenVino):
    name = "openvino"
    description = "OpenVINO CPU plugin (ai.onnx through the ONNX frontend, openvino cases through the opset API)"
    #: whole-corpus run, -n 2, openvino column alone: 15.1 s at 32 cases per batch, 12.0 s at 96, 12.2 s at 256
    batch_size = 96

    def capabilities(self) -> dict[str, list[str]]:
        lowered = [line for line in lowering.capabilities()["lowered"] if not line.startswith(builders.DOMAIN)]
        return {
            "ai.onnx": ops.names("ai.onnx"),  # the ONNX frontend reads the model the harness builds for any of them
            "openvino": builders.capabilities(),
            "lowered": lowered,  # the other specs' ops (oneDNN's), through their exact ONNX lowering
            "device": [self.device],
            "precision": [self.precision() + (" (INFERENCE_PRECISION_HINT)" if self.precision_hint else " (default)")],
        }

    def supports(self, case: CaseInstance) -> Support:
        if whole.is_model(case):  # an onnx backend test: its own model through the ONNX frontend
            return whole.support(case, self.name)
        if case.domain == builders.DOMAIN:
            return builders.supports(case)
        # ai.onnx natively; another spec's op where an exact ONNX lowering exists (its geometry checked at run)
        return lowering.supports(case, self.name)

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
            return export.opset_model(case, inputs, folder, self.device, self.precision_hint)
        support = self.supports(case)
        if not support:
            raise Unsupported(support.reason)
        # ai.onnx, or another spec's case lowered to it
        return export.onnx_model(case, folder, self.device, self.precision_hint)


class OpenVinoDefaultPrecisionBackend(OpenVinoBackend):
    """OpenVINO as a user who sets no precision hint gets it: the CPU plugin's default inference precision (bf16
    on CPUs with avx512_bf16 or AMX, f32 elsewhere). Where that default is f32 the ``openvino`` column's records
    are this column's: it says so (unsupported) instead of running every case twice."""

    name = "openvino-default-precision"
    description = "OpenVINO CPU plugin at its default inference precision (no INFERENCE_PRECISION_HINT)"
    precision_hint = None
    #: not in ``--backend=all``: on CPUs with bf16 its float32 records are bf16 arithmetic, whose divergences are
    #: recorded per ISA level by whoever runs it there (docs/onnx-backend-tests.md); named, it runs anywhere
    in_all = False

    def __init__(self, device: str | None = None):
        super().__init__(device)
        if device:
            self.name = f"openvino-default-precision:{device}"
        self._default = default_precision(self._core, self.device)

    def supports(self, case: CaseInstance) -> Support:
        if self._default == F32:
            return Support.no(f"{self.device}'s default inference precision is f32 on this CPU: the openvino "
                              "column (f32) is what a user without a precision hint gets here")
        return super().supports(case)
