"""OpenVINO LRN-1 (reference/openvino_lrn.py holds the semantics): data / (bias + alpha/size^n · sqr_sum)^beta.
Judged by the accumulation bound, K the window's elements, at the base's relative error carried to y (the
reference's ``magnitude``), then pow's 16 ULPs (OpenCL's single-precision bound) and the division: 17 roundings.
"""

from __future__ import annotations

from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_lrn


def _size(instance: CaseInstance) -> str:
    return "odd" if int(instance.attributes.get("size", 1)) % 2 else "even"


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("size", ("odd", "even"), _size)]


ENTRY = OpEntry(schema=openvino_lrn.SCHEMA, error_models={"y": Model("accumulate", roundings=17)}, ir_layer="LRN",
                coverage=coverage, layout_inputs=(),
                summary="data / (bias + alpha/size^n · window sum of squares)^beta")
