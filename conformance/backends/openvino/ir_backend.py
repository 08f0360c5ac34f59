"""The ``openvino-ir`` backend: openvino-domain cases written as IR v11 XML (ir.py) and read back with
``Core.read_model``, so what OpenVINO's IR reader accepts or rejects is under test too (docs/backends.md).

The ``openvino`` backend builds graphs through the Python opset API, which validates attributes before the IR
reader ever sees them; here the layer goes through the reader exactly as a file on disk would. The output
returned is what the compiled model produces, never the shape written in the XML.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends import openvino as openvino_package
from conformance.backends.base import Answer, Backend, Support, Unsupported
from conformance.backends.batch_answer import Batched
from conformance.backends.models import whole
from conformance.backends.openvino import batch, builders, export
from conformance.backends.openvino.ir import build_ir
from conformance.backends.openvino.messages import case_messages
from conformance.backends.openvino.runtime import F32, compile_model, default_precision, run_compiled
from conformance.model import CaseInstance


class OpenVinoIrBackend(Backend):
    name = "openvino-ir"
    description = "OpenVINO CPU plugin, openvino cases written as IR v11 XML and read with Core.read_model"
    #: Run in a worker process under --isolation=auto: an AvgPool-16 layer without ``dilations`` makes
    #: compile_model segfault (openvino 2026.4.1), which must cost one ``crash`` result, not the run.
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
            self.name = f"openvino-ir:{device}"
        self._core = openvino.Core()

    def version(self) -> str:
        import openvino

        return openvino.get_version()

    def precision(self) -> str:
        """The inference precision the records ran at: the hint, else the device's default."""
        return self.precision_hint or default_precision(self._core, self.device)

    def capabilities(self) -> dict[str, list[str]]:
        return {"openvino": builders.capabilities(), "device": [self.device]}

    def supports(self, case: CaseInstance) -> Support:
        if whole.is_model(case):
            return Support.no("openvino-ir writes one IR layer from the case's op and attributes; a whole ONNX model "
                              "(an onnx backend test) would need the ONNX frontend's conversion, which is what the "
                              "openvino backend runs")
        if case.domain != builders.DOMAIN:
            return Support.no(f"openvino-ir writes OpenVINO IR; {case.domain} cases run on the openvino backend")
        return builders.supports(case)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> Answer:
        with case_messages():  # a rejection's text without OpenVINO's process-wide node counter (messages.py)
            built = self._build(case, inputs)
            # the IR it wrote travels with the outputs (answers.answer checks it; kept for debugging)
            compiled = compile_model(self._core, built.model, self.device, self.precision_hint)
            return Answer(run_compiled(compiled, built.feeds),
                          ir=built.ir)

    def run_batch(self, instances: list[CaseInstance], inputs_list: list[list[np.ndarray]]) -> list[Batched | None]:
        """Many cases' IR models, each read as ``run`` reads it, compiled as one (batch.py)."""
        return batch.run_batch(self._core, self.device, self._build, self.supports, instances, inputs_list,
                               self.precision_hint)

    def _build(self, case: CaseInstance, inputs: list[np.ndarray]) -> batch.Built:
        """The case's IR read back (the layer's version checked): the model ``run`` compiles."""
        import openvino

        xml, weights = build_ir(case, inputs)
        blob = openvino.Tensor(np.frombuffer(weights, dtype=np.uint8).copy()) if weights else openvino.Tensor(
            openvino.Type.u8, [0])
        model = self._core.read_model(xml, blob)
        # the one node that is not plumbing: its runtime type name may differ from the spec's layer type (the
        # ReLU layer reads as a Relu node)
        op = next((n for n in model.get_ordered_ops() if n.get_type_name() not in ("Parameter", "Constant", "Result")),
                  None)  # None: the op under test is one of those (Parameter-1, Constant-1, Result-1: opset1)
        expected = builders.BUILDERS[case.op].opset_name(case.version)
        if op is not None and op.get_type_info().version_id != expected:
            raise Unsupported(f"the IR reader built {case.op} from {op.get_type_info().version_id}, not {expected}")
        return batch.Built(model, builders.parameter_feeds(case, inputs), ir=xml)

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        support = self.supports(case)
        if not support:
            raise Unsupported(support.reason)
        return export.ir_model(case, inputs, folder, self.device, self.precision_hint)
