"""OpenVINO ConvertPromoteTypes-14 (reference/openvino_convert_promote_types.py holds the rules): both inputs
converted to the common type the text's promotion rules give, judged exactly (type and values)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_convert_promote_types


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("promote_unsafe", ("false", "true"), dims.attr("promote_unsafe", False, dims.boolean)),
            dims.Dimension("pytorch_scalar_promotion", ("false", "true"),
                           dims.attr("pytorch_scalar_promotion", False, dims.boolean))]


ENTRY = OpEntry(schema=openvino_convert_promote_types.SCHEMA, error_models={"output_0": "exact", "output_1": "exact"},
                ir_layer="ConvertPromoteTypes", coverage=coverage, layout_inputs=(),
                summary="both inputs converted to their promoted common type")
