"""OpenVINO Einsum-7 (reference/openvino_einsum.py holds the semantics): sums of products named by an equation.
Judged by the accumulation bound, K the terms one output element sums plus each term's product roundings (the
reference's ``window_elements``), at the op on |x| (the contract's magnitude); integers exact.
"""

from __future__ import annotations

from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_einsum


def _mode(instance: CaseInstance) -> str:
    equation = str(instance.attributes.get("equation", ""))
    return ("explicit" if "->" in equation else "implicit") + (" ellipsis" if "..." in equation else "")


def _operands(instance: CaseInstance) -> str:
    return {1: "1", 2: "2"}.get(len(instance.inputs), "3+")


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("mode", ("explicit", "implicit", "explicit ellipsis", "implicit ellipsis"), _mode),
            dims.Dimension("operands", ("1", "2", "3+"), _operands)]


ENTRY = OpEntry(schema=openvino_einsum.SCHEMA, error_models={"output": "accumulate"}, ir_layer="Einsum",
                coverage=coverage, layout_inputs=(), summary="Einstein summation of an equation's operands")
