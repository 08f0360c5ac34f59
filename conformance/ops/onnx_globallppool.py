"""ONNX GlobalLpPool 1, 2, 22: the p-norm over every spatial element (p a FLOAT at 1, an INT from 2)."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool
from conformance.ops.neutral import ROUNDINGS, NeutralSpec
from conformance.ops.onnx_lppool import RUNS_AT, global_coverage, spelled_p
from conformance.ops.spec import OpEntry
from conformance_reference import onnx_globallppool


def _whole_input(config: Any) -> str:
    return _pool.whole_input(config, "GlobalLpPool")


def neutral(since: int) -> NeutralSpec:
    # one window, the whole input: every rounding gives it; only p is spelled
    return NeutralSpec(family="lp", spell=spelled_p, roundings=ROUNDINGS, dilations=True, limits=_whole_input,
                       runs_at=RUNS_AT.get(since))


ENTRY = OpEntry(
    schema=onnx_globallppool.SCHEMA, error_models={"Y": "pnorm"},
    coverage=global_coverage, node_tests=True, neutral=neutral,
    summary="p-norm over all spatial axes (output spatial dims 1)",
)
