"""ONNX GlobalMaxPool 1, 22: the maximum over every spatial element (exact: a selection, no arithmetic)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry, Port

ENTRY = OpEntry(
    domain="ai.onnx", op="GlobalMaxPool", versions=(1, 22),
    inputs=(Port("X"),), outputs=(Port("Y", error_model="exact"),),
    node_tests=True, summary="maximum over all spatial axes (output spatial dims 1)",
)
