"""OpenVINO Gelu-7 (reference/openvino_gelu.py holds the semantics). Judged: erf (16 ULPs) or tanh, a multiply-add
and the outer products (OpenCL counts, 20 as ONNX Gelu's family) + 1, measured at max(|y|, |x|).
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_gelu


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("approximation_mode", ("erf", "tanh"), dims.attr("approximation_mode", "erf"))]


ENTRY = OpEntry(schema=openvino_gelu.SCHEMA, error_models={"y": Model("ulp", ulps=16 + 4 + 1)}, ir_layer="Gelu",
                coverage=coverage, summary="x * Phi(x) by its erf or tanh form, element-wise")
