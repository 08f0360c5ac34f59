"""What the two OpenVINO columns share (backend.py builds graphs with the Python opset API, ir_backend.py writes IR
and reads it back): the device and its Core, the precision hint, the version, and running a built model — alone or
many in one compiled model (batch.py). Each column says how it builds a case's model (``_build``)."""

from __future__ import annotations

import numpy as np

from conformance.backends import openvino as openvino_package
from conformance.backends.base import Answer, Backend
from conformance.backends.batch_answer import Batched
from conformance.backends.openvino import batch
from conformance.backends.openvino.messages import case_messages
from conformance.backends.openvino.runtime import F32, compile_model, default_precision, run_compiled
from conformance.model import CaseInstance


class CompiledOpenVino(Backend):
    """A column that compiles each case's model for one OpenVINO device; ``_build`` makes the model."""

    # native code that segfaults on some valid models (AvgPool-16 without dilations): a worker process per backend
    isolate = True
    #: OpenVINO's validation (shape inference, op creation, compilation) raises RuntimeError
    rejection_types = (RuntimeError,)
    preload_modules = ("openvino",)
    #: INFERENCE_PRECISION_HINT (runtime.F32: float32 arithmetic on every CPU class; None: the plugin's default)
    precision_hint: str | None = F32

    @classmethod
    def check_installed(cls) -> None:
        openvino_package.check_installed()

    def __init__(self, device: str | None = None):
        self.check_installed()
        import openvino

        self.device = device or "CPU"
        if device:
            self.name = f"{type(self).name}:{device}"
        self._core = openvino.Core()

    def version(self) -> str:
        import openvino

        return openvino.get_version()

    def precision(self) -> str:
        """The inference precision the records ran at: the hint, else the device's default."""
        return self.precision_hint or default_precision(self._core, self.device)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> Answer:
        with case_messages():  # a rejection's text without OpenVINO's process-wide node counter (messages.py)
            built = self._build(case, inputs)
            compiled = compile_model(self._core, built.model, self.device, self.precision_hint)
            # the lowering it went through, and the IR it was read from (openvino-ir: kept for debugging)
            return Answer(run_compiled(compiled, built.feeds), built.lowering, ir=built.ir)

    def run_batch(self, instances: list[CaseInstance], inputs_list: list[list[np.ndarray]]) -> list[Batched | None]:
        """Many cases' models, each built as ``run`` builds it, compiled as one (batch.py)."""
        return batch.run_batch(self._core, self.device, self._build, self.supports, instances, inputs_list,
                               self.precision_hint)

    def _build(self, case: CaseInstance, inputs: list[np.ndarray]) -> batch.Built:
        raise NotImplementedError
