"""OpenVINO AdaptiveAvgPool-8: the output's spatial extent is an input (output_size, int32/int64)."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool, dims, draws
from conformance.ops.neutral import ROUNDINGS, NeutralSpec
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import openvino_adaptive_avgpool


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("output_size dtype", ("int32", "int64"), dims.input_dtype(1))]


def fuzz(since: int) -> FuzzSpec:
    return FuzzSpec(
        attributes=lambda draft: {}, draw=draws.output_sized,
        mutations=("output_size_zero", "output_size_length", "output_size_float", "rank_low", "rank_high",
                   "int_dtype", "later_attribute"),
        # the AdaptiveAvgPool-8 spec example's own erratum: an attribute the op does not define
        later_attribute=_output_type,
    )


def _output_type(draft: Any) -> dict[str, Any]:
    return {"output_type": "i64"}


def _coincide(config: Any) -> str:
    return _pool.adaptive_windows(config, "AdaptiveAvgPool-8")


def neutral(since: int) -> NeutralSpec:
    # where the windows coincide none overhangs or touches padding: every rounding and divisor choice agrees
    return NeutralSpec(family="avg", spell=lambda config: {}, roundings=ROUNDINGS,
                       include_pad=(False, True), limits=_coincide, inputs=_pool.adaptive_output_size)


ENTRY = OpEntry(
    schema=openvino_adaptive_avgpool.SCHEMA, error_models={"output": "average"},
    coverage=coverage, fuzz=fuzz, neutral=neutral, ir_layer="AdaptiveAvgPool",
    summary="average over adaptive windows [floor(i*in/out), ceil((i+1)*in/out))",
)
