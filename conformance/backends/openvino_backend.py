"""openvino: ``ai.onnx`` cases through OpenVINO's ONNX frontend; ``openvino`` cases (AvgPool-1/14/16,
AdaptiveAvgPool-8) built natively with the Python opset API (openvino_native.py). Both compile for CPU."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from conformance.backends import openvino_native as native
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.onnx_model import build_model
from conformance.suite.model import CaseInstance

_UNSUPPORTED_MARKERS = ("not supported", "Unsupported", "No conversion rule", "is not implemented")


class OpenVinoBackend(Backend):
    name = "openvino"
    description = "OpenVINO CPU plugin (ai.onnx through the ONNX frontend, openvino cases through the opset API)"
    # native code that segfaults on some valid models (AvgPool-16 without dilations): a worker process per backend
    isolate = True

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
            "ai.onnx": ["AveragePool", "GlobalAveragePool"],
            "openvino": [f"{op}-{v}" for op, versions in native.OPSETS.items() for v in versions],
            "device": [self.device],
        }

    def supports(self, case: CaseInstance) -> Support:
        if case.domain == "openvino":
            return native.supports(case)
        if case.domain != "ai.onnx":
            return Support.no(f"openvino runs ai.onnx and openvino cases; {case.domain} cases have no OpenVINO form")
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        if case.domain == "openvino":
            compiled = self._core.compile_model(native.build_model(case, inputs), self.device)
            return run_compiled(compiled, inputs[:1], case.dtype)  # output_size is a Constant, not fed
        model = build_model(case, check=not case.expect_error)
        try:
            ov_model = self._core.read_model(model.SerializeToString())
        except Exception as exc:
            message = str(exc)
            if any(marker in message for marker in _UNSUPPORTED_MARKERS):
                raise Unsupported(message.strip().splitlines()[0][:500]) from None
            raise
        compiled = self._core.compile_model(ov_model, self.device)
        return run_compiled(compiled, inputs, case.dtype)


def run_compiled(compiled, inputs: list[np.ndarray], dtype: str) -> list[np.ndarray]:
    """Run a compiled model; bfloat16 crosses the Python API as uint16 bit views (FINDINGS.md)."""
    import openvino

    feeds = {}
    for index, array in enumerate(inputs):
        if array.dtype == ml_dtypes.bfloat16:
            feeds[index] = openvino.Tensor(array.view(np.uint16), array.shape, openvino.Type.bf16)
        else:
            feeds[index] = np.ascontiguousarray(array)
    request = compiled.create_infer_request()
    request.infer(feeds)
    outputs = []
    for index in range(len(compiled.outputs)):
        tensor = request.get_output_tensor(index)
        if tensor.element_type == openvino.Type.bf16:
            outputs.append(np.array(tensor.data, copy=True).view(np.uint16).view(ml_dtypes.bfloat16))
        else:
            outputs.append(np.array(tensor.data, copy=True))
    return outputs
