"""ONNX AveragePool 1, 7, 10, 11, 19, 22 (reference/onnx_averagepool.py holds the semantics)."""

from __future__ import annotations

from conformance.ops import _pool, dims, draws
from conformance.ops.neutral import NeutralSpec
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import onnx_averagepool

_S = onnx_averagepool.SCHEMA
CEIL, DILATIONS, INCLUDE_PAD = _S.since("ceil_mode"), _S.since("dilations"), _S.since("count_include_pad")


def coverage(version: int) -> list[dims.Dimension]:
    found = _pool.onnx_coverage(version, CEIL, DILATIONS)
    if version >= INCLUDE_PAD:
        found.insert(1, dims.Dimension("count_include_pad", ("0", "1"), dims.attr("count_include_pad", 0, dims.flag)))
    return found


def fuzz(since: int) -> FuzzSpec:
    mutations = ["kernel_zero", "stride_zero", "pad_negative", "kernel_length", "empty_output", "rank_low",
                 "int_dtype", "bad_auto_pad", "pads_with_auto_pad", "missing_kernel"]
    if since >= CEIL:
        mutations.append("bad_flag")
    mutations.append("dilation_zero" if since >= DILATIONS else "later_attribute")
    return FuzzSpec(
        draw=draws.windowed,
        attributes=lambda d: _pool.onnx_fuzz_attributes(d, CEIL, DILATIONS, INCLUDE_PAD),
        roundings=("floor", "ceil") if since >= CEIL else ("floor",), include_pad=since >= INCLUDE_PAD,
        dilations=since >= DILATIONS, mutations=tuple(mutations),
        names={"kernel": "kernel_shape", "pads": "pads", "flag": "ceil_mode"},
        later_attribute=_pool.onnx_later_attribute(
            ((INCLUDE_PAD, "count_include_pad"), (CEIL, "ceil_mode"), (DILATIONS, "dilations"))),
    )


def neutral(since: int) -> NeutralSpec:
    return _pool.onnx_neutral("avg", since, CEIL, DILATIONS, INCLUDE_PAD)


ENTRY = OpEntry(
    schema=onnx_averagepool.SCHEMA, error_models={"Y": "average"},
    coverage=coverage, fuzz=fuzz, node_tests=True, neutral=neutral,
    summary="average of each window; count_include_pad from 7, ceil_mode from 10, dilations from 19",
)
