"""ONNX GlobalLpPool 1, 2, 22: the p-norm over every spatial element (p a FLOAT at 1, an INT from 2)."""

from __future__ import annotations

from conformance.ops.onnx_lppool import global_coverage, p_attribute
from conformance.ops.spec import OpEntry, Port

ENTRY = OpEntry(
    domain="ai.onnx", op="GlobalLpPool", versions=(1, 2, 22), attributes=p_attribute(),
    inputs=(Port("X"),), outputs=(Port("Y", error_model="pnorm"),),
    coverage=global_coverage, node_tests=True,
    summary="p-norm over all spatial axes (output spatial dims 1)",
)
