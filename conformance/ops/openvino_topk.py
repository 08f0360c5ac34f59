"""OpenVINO TopK-1/3/11 (reference/openvino_topk.py holds the semantics): the k largest or smallest values of each
slice and their indices, judged exactly; what the texts leave open (the order of equal values without ``stable``,
``sort = none``, NaN) is unspecified."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_topk


def coverage(version: int) -> list[dims.Dimension]:
    found = [dims.Dimension("mode", ("min", "max"), dims.attr("mode", None)),
             dims.Dimension("sort", ("value", "index", "none"), dims.attr("sort", None))]
    if version >= 3:
        found.append(dims.Dimension("index_element_type", ("i32", "i64"), dims.attr("index_element_type", "i32")))
    if version >= 11:
        found.append(dims.Dimension("stable", ("false", "true"), dims.attr("stable", False, dims.boolean)))
    return found


ENTRY = OpEntry(schema=openvino_topk.SCHEMA, error_models={"values": "exact", "indices": "exact"}, ir_layer="TopK",
                coverage=coverage, layout_inputs=(), summary="k largest/smallest along axis, sorted by value or index")
