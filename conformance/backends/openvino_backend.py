"""The ``openvino`` entry point (pyproject.toml names this module); the backend lives in openvino/backend.py."""

from conformance.backends.openvino.backend import OpenVinoBackend

__all__ = ["OpenVinoBackend"]
