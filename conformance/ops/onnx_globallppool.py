"""ONNX GlobalLpPool 1, 2, 22: the p-norm over every spatial element (p a FLOAT at 1, an INT from 2)."""

from __future__ import annotations

from conformance.ops.onnx_lppool import global_coverage
from conformance.ops.spec import OpEntry
from conformance_reference import onnx_globallppool

ENTRY = OpEntry(
    schema=onnx_globallppool.SCHEMA, error_models={"Y": "pnorm"},
    coverage=global_coverage, node_tests=True, summary="p-norm over all spatial axes (output spatial dims 1)",
)
