"""OpenVINO MatMul-1 (reference/openvino_matmul.py holds the semantics): batched matrix products with the text's
1-D and transpose rules. Judged by the accumulation bound, (K + 2)·u·Σ|a·b| + 1 ulp, K the contracted extent and
Σ|a·b| the product of the magnitudes (the contract's default magnitude: the op on |a| and |b|).
"""

from __future__ import annotations

from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_matmul


def _ranks(instance: CaseInstance) -> str | None:
    """Which of the text's shape cases the instance is: 1-D x 1-D, 1-D x ND, ND x 1-D, ND x ND."""
    if len(instance.input_shapes) != 2:
        return None
    a, b = (len(s) for s in instance.input_shapes)
    return f"{'1D' if a == 1 else 'ND'} x {'1D' if b == 1 else 'ND'}"


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("ranks", ("1D x 1D", "1D x ND", "ND x 1D", "ND x ND"), _ranks),
            dims.Dimension("transpose_a", ("false", "true"), dims.attr("transpose_a", False, dims.boolean)),
            dims.Dimension("transpose_b", ("false", "true"), dims.attr("transpose_b", False, dims.boolean))]


ENTRY = OpEntry(schema=openvino_matmul.SCHEMA, error_models={"y": "accumulate"}, ir_layer="MatMul",
                coverage=coverage, layout_inputs=(), summary="batched matrix product, transpose and 1-D rules")
