"""ONNX GlobalMaxPool 1, 22: the maximum over every spatial element (exact: a selection, no arithmetic)."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool
from conformance.ops.neutral import ROUNDINGS, NeutralSpec
from conformance.ops.spec import OpEntry
from conformance_reference import onnx_globalmaxpool


def _whole_input(config: Any) -> str:
    return _pool.whole_input(config, "GlobalMaxPool")


def neutral(since: int) -> NeutralSpec:
    # one window, the whole input: every rounding gives it, and a maximum has no divisor to choose
    return NeutralSpec(family="max", spell=lambda config: {}, roundings=ROUNDINGS, dilations=True,
                       limits=_whole_input)


ENTRY = OpEntry(
    schema=onnx_globalmaxpool.SCHEMA, error_models={"Y": "exact"},
    node_tests=True, neutral=neutral, summary="maximum over all spatial axes (output spatial dims 1)",
)
