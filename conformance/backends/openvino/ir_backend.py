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

from conformance.backends.base import Support, Unsupported
from conformance.backends.models import whole
from conformance.backends.openvino import batch, builders, export
from conformance.backends.openvino.compiled import CompiledOpenVino
from conformance.backends.openvino.ir import build_ir
from conformance.model import CaseInstance


class OpenVinoIrBackend(CompiledOpenVino):
    name = "openvino-ir"
    description = "OpenVINO CPU plugin, openvino cases written as IR v11 XML and read with Core.read_model"
    # isolated (CompiledOpenVino): an AvgPool-16 layer without ``dilations`` makes compile_model segfault (openvino
    # 2026.4.1), which must cost one ``crash`` result, not the run

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
