"""onnx-reference: ``onnx.reference.ReferenceEvaluator`` on the model the harness builds.

A second opinion from the ONNX project's own Python evaluator, not our oracle (reference/ is): its known
divergences (docs/spec-notes.md, docs/backends.md) show up as failures like any backend's. OpenVINO and oneDNN cases
run through an exact ONNX lowering where one exists (lowering/); its ``Answer.lowering`` says which was used. The
evaluation itself is onnx_reference/run_onnx_reference.py, the same file an exported reproduction runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends.discovery import presence
from conformance.backends.onnx_base import OnnxModelBackend
from conformance.backends.onnx_reference.run_onnx_reference import evaluate


class OnnxReferenceBackend(OnnxModelBackend):
    name = "onnx-reference"
    isa_dependent = False  # pure Python and NumPy: the same kernels on every CPU
    description = "onnx.reference.ReferenceEvaluator (pure Python; ai.onnx cases, others through exact lowering)"
    #: the evaluator validates little; what it does check it raises as RuntimeError ("output shape cannot be
    #: null or negative"). Its IndexError/ValueError/OverflowError from deep inside an op's NumPy code are not a
    #: rejection: they are errors, listed in expectations/onnx-reference.yaml (it accepts invalid models).
    rejection_types = (RuntimeError,)
    runner = Path(__file__).with_name("run_onnx_reference.py")
    #: its runner says what it does not implement (its own markers); it takes every element type it runs
    unsupported_types: frozenset[str] = frozenset()
    unsupported_markers: tuple[str, ...] = ()
    unsupported_exceptions: tuple[str | type[BaseException], ...] = ()
    prepared_cache_size = 0  # the evaluator is built per run: nothing worth keeping

    @classmethod
    def check_installed(cls) -> None:
        # onnx is the harness's own dependency; onnx.reference is missing from an onnx too old to have it
        presence.require("onnx.reference", "pip install 'onnx>=1.16'", extensions=("onnx_cpp2py_export",))

    def __init__(self) -> None:
        self.check_installed()
        import onnx.reference  # noqa: F401  (installed but failing to import: a broken install, said as it is)

        super().__init__()

    def version(self) -> str:
        import onnx

        return onnx.__version__

    def execute(self, prepared: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
        return evaluate(prepared, inputs)
