"""The ``openvino-ir`` entry point (pyproject.toml names this module); the backend lives in
openvino/ir_backend.py, the IR writer in openvino/ir.py."""

from conformance.backends.openvino.ir import build_ir, ir_value
from conformance.backends.openvino.ir_backend import OpenVinoIrBackend

__all__ = ["OpenVinoIrBackend", "build_ir", "ir_value"]
