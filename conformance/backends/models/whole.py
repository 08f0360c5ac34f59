"""Cases that are a whole ONNX model (``CaseInstance.model``: the onnx backend tests, suite/backend_tests.py).

Every backend that reads ONNX runs that model as it is, fed the graph's inputs in order (no lowering, no model of
the harness's own); a backend that reads no ONNX says ``unsupported``. A model case some of whose values are no
tensors (a sequence, an optional: ``Case.non_tensor``) is unsupported everywhere, saying which.
"""

from __future__ import annotations

import onnx

from conformance.backends.base import Support
from conformance.model import CaseInstance


def is_model(case: CaseInstance) -> bool:
    return getattr(case, "model", None) is not None


def support(case: CaseInstance, backend: str) -> Support:
    """An ONNX-reading backend's answer for a model case: yes, unless some value is no tensor."""
    if case.case.non_tensor:
        return Support.no(f"{backend} is fed and answers tensors; this model's {case.case.non_tensor}")
    return Support.yes()


def no_onnx(backend: str, what: str) -> Support:
    """The answer of a backend that reads no ONNX model (``what`` it builds instead)."""
    return Support.no(f"{backend} builds {what} and reads no ONNX model; this case is a whole ONNX model "
                      "(an onnx backend test)")


def model_of(case: CaseInstance) -> onnx.ModelProto:
    """The case's own model, parsed (a fresh proto per call: callers may clear its graph name)."""
    return onnx.load_from_string(case.model)  # type: ignore[arg-type]
