"""ONNX GlobalAveragePool 1, 22: the average over every spatial element."""

from __future__ import annotations

from conformance.ops.spec import OpEntry, Port

ENTRY = OpEntry(
    domain="ai.onnx", op="GlobalAveragePool", versions=(1, 22),
    inputs=(Port("X"),), outputs=(Port("Y", error_model="average"),),
    node_tests=True, summary="average over all spatial axes (output spatial dims 1)",
)
