"""``--backend=onnx-backend:MODULE``: any module implementing ``onnx.backend.base.Backend`` (prepare/run) runs
the ONNX model the harness builds, so existing ONNX backends plug in without code. The call itself is
onnx_backend/run_onnx_backend.py, which an exported reproduction runs too."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends.base import NOT_REJECTIONS, Rejected
from conformance.backends.onnx_backend.run_onnx_backend import run_prepared
from conformance.backends.onnx_base import OnnxModelBackend


class OnnxBackendAdapter(OnnxModelBackend):
    #: the reproduction imports the same module: it needs it installed (else the script exits 2)
    runner = Path(__file__).with_name("run_onnx_backend.py")
    #: its runner says what it does not implement (its own markers); it takes every element type it runs
    unsupported_types: frozenset[str] = frozenset()
    unsupported_markers: tuple[str, ...] = ()
    unsupported_exceptions: tuple[str | type[BaseException], ...] = ()
    prepared_cache_size = 0  # the module's prepare() runs with its run(), as onnx.backend's own tests call them

    def __init__(self, module: str):
        if not module:
            raise ValueError("onnx-backend needs a module: --backend=onnx-backend:package.module")
        super().__init__()
        self.module_name = module
        self.module = importlib.import_module(module)
        self.name = f"onnx-backend:{module}"
        self.description = f"onnx.backend.base.Backend implemented by {module}"

    def version(self) -> str:
        top = importlib.import_module(self.module_name.split(".")[0])
        return str(getattr(top, "__version__", "unknown"))

    def execute(self, prepared: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
        try:
            return run_prepared(self.module, prepared, inputs)
        except (NotImplementedError, *NOT_REJECTIONS):
            raise  # unsupported; or a module without prepare(), a library that did not load: never a rejection
        except Exception as exc:
            # onnx.backend defines no error types: what the module's prepare/run raise is its rejection
            raise Rejected(f"{type(exc).__name__}: {exc}") from exc

    def runner_config(self) -> dict[str, Any]:
        return {"module": self.module_name}
