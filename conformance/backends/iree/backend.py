"""iree: IREE's ONNX path (PyPI ``iree-base-compiler`` + ``iree-base-runtime``).

``ai.onnx`` cases run as the harness's single-node model; OpenVINO and oneDNN cases through an exact ONNX
lowering where one exists (lowering/, ``Answer.lowering``). Each model is imported (onnx checker + shape
inference + the torch-dialect importer, as ``iree-import-onnx``), compiled for llvm-cpu and run on the
``local-sync`` driver (run_iree.py, the same file an exported reproduction runs). Compiling costs ~1-2 s per model:
modules are cached per model content (cache.py; ``CONFORMANCE_IREE_CACHE`` adds a disk cache). Native code (LLVM
codegen in the compiler subprocess, generated code in the runtime): isolated under ``--isolation=auto``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx

from conformance.backends.discovery import presence
from conformance.backends.iree import run_iree
from conformance.backends.iree.cache import ModuleCache
from conformance.backends.onnx_base import OnnxModelBackend

HERE = Path(__file__).parent


class IreeBackend(OnnxModelBackend):
    name = "iree"
    isolate = True  # generated native code runs in this process: a bad kernel would take the harness down
    description = "IREE: iree-import-onnx -> iree-compile (llvm-cpu, generic x86-64) -> runtime local-sync"
    runner = HERE / "run_iree.py"
    #: its runner says what it does not implement (its own markers); it takes every element type it runs
    unsupported_types: frozenset[str] = frozenset()
    unsupported_markers: tuple[str, ...] = ()
    unsupported_exceptions: tuple[str | type[BaseException], ...] = ()
    #: loaded modules (runtime contexts) kept; the compiled bytes are all kept (cache.py, on disk when asked)
    prepared_cache_size = 16

    @classmethod
    def check_installed(cls) -> None:
        # two wheels in the namespace package iree: the compiler's library and the runtime's extension
        install = presence.extra("iree")
        presence.require("iree.compiler", install, libraries=("compiler/_mlir_libs/libIREECompiler.so*",))
        presence.require("iree.runtime", install, extensions=("_runtime_libs/_runtime",))

    def __init__(self) -> None:
        self.check_installed()
        import iree.compiler  # noqa: F401  (installed but failing to import: a broken install, said as it is)
        import iree.runtime  # noqa: F401

        super().__init__()
        self.cache = ModuleCache.from_environment(f"{self.version()} {run_iree.FLAGS_RULE}",
                                                  refusals=(run_iree.CompileError, NotImplementedError))
        self.compiler = run_iree.Compiler()  # its sessions live as long as this backend

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

    def runtime_capabilities(self) -> dict[str, list[str]]:
        return {"target": ["llvm-cpu (generic x86-64)"]}

    def prepare(self, model: onnx.ModelProto, data: bytes) -> Any:
        vmfb = self.cache.get(data, lambda: self.compiler.compile(run_iree.import_onnx(model),
                                                                  run_iree.flags_for(model)))
        return run_iree.load(vmfb)

    def execute(self, prepared: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
        return run_iree.run_function(prepared, inputs)
