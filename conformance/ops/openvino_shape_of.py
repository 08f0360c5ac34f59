"""OpenVINO ShapeOf (reference/openvino_shape_of.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_shape_of


def coverage(version: int) -> list[dims.Dimension]:
    schema = openvino_shape_of.SCHEMA
    found = [dims.Dimension("output_type", ("i64", "i32"), dims.attr("output_type", "i64"))]
    return [d for d in found if schema.attribute(d.name, version) is not None]


ENTRY = OpEntry(schema=openvino_shape_of.SCHEMA, error_models={"output": "exact"}, ir_layer="ShapeOf",
                coverage=coverage, layout_inputs=(), summary="the input's dimensions as a 1-D tensor")
