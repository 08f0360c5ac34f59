"""ONNX MaxPool 1, 8, 10, 11, 12, 22 (reference/onnx_maxpool.py holds the semantics).

8 adds storage_order and the Indices output, 10 ceil_mode and dilations, 12 int8/uint8, 22 bfloat16 and the
rule that a ceil-mode window starting in the right padding is dropped.
"""

from __future__ import annotations

from conformance.ops import _pool, dims, draws
from conformance.ops.neutral import NeutralSpec
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import onnx_maxpool

_S = onnx_maxpool.SCHEMA
INDICES, CEIL, DILATIONS = _S.since("Indices"), _S.since("ceil_mode"), _S.since("dilations")


def coverage(version: int) -> list[dims.Dimension]:
    found = _pool.onnx_coverage(version, CEIL, DILATIONS)
    if version >= INDICES:
        found.append(dims.Dimension("storage_order", ("0", "1"), dims.attr("storage_order", 0, dims.flag)))
        found.append(dims.Dimension("outputs", ("1", "2"), dims.output_count))
    return found


def fuzz(since: int) -> FuzzSpec:
    mutations = ["kernel_zero", "stride_zero", "pad_negative", "kernel_length", "empty_output", "rank_low",
                 "int_dtype", "bad_auto_pad", "pads_with_auto_pad", "missing_kernel"]
    if since >= CEIL:
        mutations += ["bad_flag", "dilation_zero"]
    else:
        mutations.append("later_attribute")
    return FuzzSpec(
        draw=draws.windowed,
        attributes=lambda d: _pool.onnx_fuzz_attributes(d, CEIL, DILATIONS, None),
        roundings=("floor", "ceil") if since >= CEIL else ("floor",),
        dilations=since >= DILATIONS, mutations=tuple(mutations),
        names={"kernel": "kernel_shape", "pads": "pads", "flag": "ceil_mode"},
        later_attribute=_pool.onnx_later_attribute(((INDICES, "storage_order"), (CEIL, "ceil_mode"))),
    )


def neutral(since: int) -> NeutralSpec:
    return _pool.onnx_neutral("max", since, CEIL, DILATIONS, None)


ENTRY = OpEntry(
    schema=onnx_maxpool.SCHEMA, error_models={"Y": "exact", "Indices": "index"},
    coverage=coverage, fuzz=fuzz, node_tests=True, neutral=neutral,
    summary="maximum of each window, and its flat index (Indices) from 8",
)
