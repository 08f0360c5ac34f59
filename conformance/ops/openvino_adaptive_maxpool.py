"""OpenVINO AdaptiveMaxPool-8: AdaptiveAvgPool's windows, the maximum and its spatial index (index_element_type)."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool, dims, draws
from conformance.ops.neutral import ROUNDINGS, NeutralSpec
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import openvino_adaptive_maxpool

INDEX_TYPES = next(a.values for a in openvino_adaptive_maxpool.SCHEMA.attributes if a.name == "index_element_type")


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
        attributes=_attributes, draw=draws.output_sized,
        mutations=("output_size_zero", "output_size_length", "output_size_float", "rank_low", "rank_high",
                   "int_dtype", "later_attribute", "bad_index_type"),
        later_attribute=_output_type,
    )


def _coincide(config: Any) -> str:
    return _pool.adaptive_windows(config, "AdaptiveMaxPool-8")


def _neutral_attributes(config: Any) -> dict[str, Any]:
    # i32 indices: the page compares the first output's values, and OpenVINO's CPU plugin cannot compile the
    # default i64 (spec-notes, AdaptiveMaxPool-8; the op's own cases record that divergence)
    return {"index_element_type": "i32"}


def neutral(since: int) -> NeutralSpec:
    # where the windows coincide none overhangs or touches padding: every rounding reads the same
    return NeutralSpec(family="max", spell=_neutral_attributes, roundings=ROUNDINGS, limits=_coincide,
                       inputs=_pool.adaptive_output_size)


ENTRY = OpEntry(
    schema=openvino_adaptive_maxpool.SCHEMA, error_models={"output": "exact", "indices": "index"},
    coverage=coverage, fuzz=fuzz, neutral=neutral, ir_layer="AdaptiveMaxPool",
    summary="maximum over adaptive windows [floor(i*in/out), ceil((i+1)*in/out)) and its spatial index",
)
