"""OpenVINO AdaptiveMaxPool-8: AdaptiveAvgPool's windows, the maximum and its spatial index (index_element_type)."""

from __future__ import annotations

from typing import Any

from conformance.ops import dims
from conformance.ops.spec import Attribute, FuzzSpec, OpEntry, Port

INDEX_TYPES = ("i64", "i32")


def coverage(version: int) -> list[dims.Dimension]:
    return [
        dims.Dimension("output_size dtype", ("int32", "int64"), dims.input_dtype(1)),
        dims.Dimension("index_element_type", INDEX_TYPES, dims.attr("index_element_type", "i64")),
        dims.Dimension("outputs", ("1", "2"), dims.output_count),
    ]


def _attributes(draft: Any) -> dict[str, Any]:
    return {"index_element_type": "i32"} if draft.value_seed % 2 else {}


def _output_type(draft: Any) -> dict[str, Any]:
    # the spec example's own erratum: <data output_type="i64"/>, an attribute the op does not define
    return {"output_type": "i64"}


def fuzz(since: int) -> FuzzSpec:
    return FuzzSpec(
        attributes=_attributes, generator="output-size",
        mutations=("output_size_zero", "output_size_length", "output_size_float", "rank_low", "rank_high",
                   "int_dtype", "later_attribute", "bad_index_type"),
        later_attribute=_output_type,
    )


ENTRY = OpEntry(
    domain="openvino", op="AdaptiveMaxPool", versions=(8,),
    attributes=(Attribute("index_element_type", "enum", default="i64", values=INDEX_TYPES),),
    inputs=(Port("data"), Port("output_size", dtypes=("int32", "int64"))),
    outputs=(Port("output", error_model="exact"),
             Port("indices", dtype="int64", error_model="index", of_values=0, dtype_attribute="index_element_type")),
    coverage=coverage, fuzz=fuzz, ir_layer="AdaptiveMaxPool", lowers_to=("ai.onnx/MaxPool",),
    summary="maximum over adaptive windows [floor(i*in/out), ceil((i+1)*in/out)) and its spatial index",
)
