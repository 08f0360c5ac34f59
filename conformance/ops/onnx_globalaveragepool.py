"""ONNX GlobalAveragePool 1, 22: the average over every spatial element."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool
from conformance.ops.neutral import ROUNDINGS, NeutralSpec
from conformance.ops.spec import OpEntry
from conformance_reference import onnx_globalaveragepool


def _whole_input(config: Any) -> str:
    return _pool.whole_input(config, "GlobalAveragePool")


def neutral(since: int) -> NeutralSpec:
    # one window, the whole input: no rounding or divisor choice changes it (a dilated kernel skips elements)
    return NeutralSpec(family="avg", spell=lambda config: {}, roundings=ROUNDINGS, include_pad=(False, True),
                       dilations=True, limits=_whole_input)


ENTRY = OpEntry(
    schema=onnx_globalaveragepool.SCHEMA, error_models={"Y": "average"},
    node_tests=True, neutral=neutral, summary="average over all spatial axes (output spatial dims 1)",
)
