"""OpenVINO Inverse-14 (reference/openvino_inverse.py holds the semantics): the inverse of each square matrix, or of
its transpose with adjoint. Judged by the accumulation bound with K = 3n at |X|·|L||U|·|X| (LU's backward error,
gamma_3n·|L||U|, carried to the inverse; the reference's ``magnitude``).
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_inverse


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("adjoint", ("false", "true"), dims.attr("adjoint", False, dims.boolean))]


ENTRY = OpEntry(schema=openvino_inverse.SCHEMA, error_models={"output": "accumulate"}, ir_layer="Inverse",
                coverage=coverage, layout_inputs=(), summary="inverse of each square matrix (its transpose: adjoint)")
