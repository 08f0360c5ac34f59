"""OpenVINO NonZero-3 (reference/openvino_nonzero.py holds the semantics): the index tuples of the non-zero elements
in row-major order, a data-dependent [rank, count] output, judged exactly."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_nonzero


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("output_type", ("i64", "i32"), dims.attr("output_type", "i64"))]


ENTRY = OpEntry(schema=openvino_nonzero.SCHEMA, error_models={"output": "exact"}, ir_layer="NonZero",
                coverage=coverage, layout_inputs=(), summary="row-major index tuples of the non-zero elements")
