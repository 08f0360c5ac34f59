"""OpenVINO AdaptiveAvgPool-8: the output's spatial extent is an input (output_size, int32/int64)."""

from __future__ import annotations

from typing import Any

from conformance.ops import dims
from conformance.ops.spec import FuzzSpec, OpEntry, Port


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("output_size dtype", ("int32", "int64"), dims.input_dtype(1))]


def fuzz(since: int) -> FuzzSpec:
    return FuzzSpec(
        attributes=lambda draft: {}, generator="output-size",
        mutations=("output_size_zero", "output_size_length", "output_size_float", "rank_low", "rank_high",
                   "int_dtype", "later_attribute"),
        # the AdaptiveAvgPool-8 spec example's own erratum: an attribute the op does not define
        later_attribute=_output_type,
    )


def _output_type(draft: Any) -> dict[str, Any]:
    return {"output_type": "i64"}


ENTRY = OpEntry(
    domain="openvino", op="AdaptiveAvgPool", versions=(8,),
    inputs=(Port("data"), Port("output_size", dtypes=("int32", "int64"))),
    outputs=(Port("output", error_model="average"),),
    coverage=coverage, fuzz=fuzz, ir_layer="AdaptiveAvgPool", lowers_to=("ai.onnx/AveragePool",),
    summary="average over adaptive windows [floor(i*in/out), ceil((i+1)*in/out))",
)
