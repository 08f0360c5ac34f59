"""ONNX GlobalMaxPool 1, 22: the maximum over every spatial element (exact: a selection, no arithmetic)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import onnx_globalmaxpool

ENTRY = OpEntry(
    schema=onnx_globalmaxpool.SCHEMA, error_models={"Y": "exact"},
    node_tests=True, summary="maximum over all spatial axes (output spatial dims 1)",
)
