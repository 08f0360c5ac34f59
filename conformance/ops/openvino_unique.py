"""OpenVINO Unique-10 (reference/openvino_unique.py holds the semantics): unique elements or slices, first-occurrence
indices, each element's place and the counts, in the order the text fixes (ascending, or first occurrence): exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_unique


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("sorted", ("false", "true"), dims.attr("sorted", True, dims.boolean)),
            dims.Dimension("index_element_type", ("i32", "i64"), dims.attr("index_element_type", "i64")),
            dims.Dimension("count_element_type", ("i32", "i64"), dims.attr("count_element_type", "i64"))]


ENTRY = OpEntry(schema=openvino_unique.SCHEMA,
                error_models={"unique": "exact", "indices": "exact", "rev_indices": "exact", "counts": "exact"},
                ir_layer="Unique", coverage=coverage, layout_inputs=(),
                summary="unique elements or slices along axis, with indices and counts")
