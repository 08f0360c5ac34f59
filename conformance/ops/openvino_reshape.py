"""OpenVINO Reshape (reference/openvino_reshape.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reshape


def coverage(version: int) -> list[dims.Dimension]:
    schema = openvino_reshape.SCHEMA
    found = [dims.Dimension("special_zero", ("false", "true"), dims.attr("special_zero", False, dims.boolean))]
    return [d for d in found if schema.attribute(d.name, version) is not None]


ENTRY = OpEntry(schema=openvino_reshape.SCHEMA, error_models={"output": "exact"}, ir_layer="Reshape",
                coverage=coverage, layout_inputs=(),
                summary="data's elements under the shape input's dimensions (0 and -1 special)")
