"""iree: IREE's ONNX path (PyPI ``iree-base-compiler`` + ``iree-base-runtime``).

``ai.onnx`` cases run as the harness's single-node model; OpenVINO and oneDNN cases through an exact ONNX
lowering where one exists (lowering/, ``last_lowering``). Each model is imported (onnx checker + shape
inference + the torch-dialect importer, as ``iree-import-onnx``), compiled for llvm-cpu and run on the
``local-sync`` driver (run_iree.py, the same file an exported reproduction runs). Compiling costs ~1-2 s per model:
modules are cached per model content (cache.py; ``CONFORMANCE_IREE_CACHE`` adds a disk cache). Native code (LLVM
codegen in the compiler subprocess, generated code in the runtime): isolated under ``--isolation=auto``.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends import lowering
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.export import export_onnx
from conformance.backends.iree import run_iree
from conformance.backends.iree.cache import ModuleCache
from conformance.backends.lowering import feed_inputs, onnx_model_for
from conformance.backends.model_cache import model_bytes
from conformance.suite.model import CaseInstance

HERE = Path(__file__).parent
#: Loaded modules (runtime contexts) kept per backend instance; the compiled bytes are all kept (cache.py).
CONTEXTS = 16


class IreeBackend(Backend):
    name = "iree"
    isolate = True  # generated native code runs in this process: a bad kernel would take the harness down
    description = "IREE: iree-import-onnx -> iree-compile (llvm-cpu, generic x86-64) -> runtime local-sync"

    def __init__(self) -> None:
        import iree.compiler  # noqa: F401  (fail at construction when missing: the backend is not installed)
        import iree.runtime  # noqa: F401

        self.cache = ModuleCache.from_environment(f"{self.version()} {run_iree.FLAGS_RULE}",
                                                  refusals=(run_iree.CompileError, NotImplementedError))
        self._functions: OrderedDict[str, Any] = OrderedDict()

    def version(self) -> str:
        from iree.compiler.version import VERSION

        return VERSION

    @property
    def rejection_types(self) -> tuple[type[BaseException], ...]:  # type: ignore[override]
        """How IREE's ONNX path refuses a model: the importer's validation (``iree-import-onnx`` runs the onnx
        checker and shape inference first) and iree-compile's diagnostics (``run_iree.CompileError``)."""
        from onnx.checker import ValidationError
        from onnx.shape_inference import InferenceError

        return (ValidationError, InferenceError, run_iree.CompileError)

    def capabilities(self) -> dict[str, list[str]]:
        return {**lowering.capabilities(), "target": ["llvm-cpu (generic x86-64)"]}

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        self.last_lowering = ""
        model, feeds, self.last_lowering = onnx_model_for(case)
        data = model_bytes(model)
        key = self.cache.key(data)  # computed twice (here and in get): 32 bytes of SHA-256 over ~300 bytes
        try:
            vmfb = self.cache.get(data, lambda: run_iree.compile_mlir(run_iree.import_onnx(model),
                                                                      run_iree.flags_for(model)))
            function = self._functions.get(key)
            if function is None:
                function = self._functions[key] = run_iree.load(vmfb)
                while len(self._functions) > CONTEXTS:
                    self._functions.popitem(last=False)
            else:
                self._functions.move_to_end(key)
            return run_iree.run_function(function, feed_inputs(inputs, feeds))
        except NotImplementedError as exc:
            raise Unsupported(str(exc)) from None

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        return export_onnx(case, folder, "run_iree", {}, template=HERE / "run_iree.py")
