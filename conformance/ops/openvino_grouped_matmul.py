"""OpenVINO GroupedMatMul-17 (reference/openvino_grouped_matmul.py holds the semantics): a matrix product per group
(2-D x 3-D by offsets, 3-D x 3-D, 2-D x 2-D by offsets), judged by the accumulation bound with K the contracted
extent (integers exactly)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_grouped_matmul


def coverage(version: int) -> list[dims.Dimension]:
    def case(instance) -> str | None:
        ranks = tuple(len(s) for s in instance.input_shapes[:2])
        return {(2, 3): "2-D x 3-D", (3, 3): "3-D x 3-D", (2, 2): "2-D x 2-D"}.get(ranks)

    return [dims.Dimension("case", ("2-D x 3-D", "3-D x 3-D", "2-D x 2-D"), case)]


ENTRY = OpEntry(schema=openvino_grouped_matmul.SCHEMA, error_models={"output": "accumulate"}, ir_layer="GroupedMatMul",
                coverage=coverage, layout_inputs=(), summary="a matrix product per group of rows (MoE)")
