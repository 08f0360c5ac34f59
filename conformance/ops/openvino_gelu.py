"""OpenVINO Gelu-2 and Gelu-7 (reference/openvino_gelu.py holds the semantics). Judged: erf (16 ULPs) or tanh, a
multiply-add and the outer products (OpenCL counts, 20 as ONNX Gelu's family) + 1, measured at max(|y|, |x|).
Gelu-2's text defines the erf form and allows its tanh approximation: an output is within that bound of one of
the two whole (ops/_one_reading.py).
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops._one_reading import OneReading
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_gelu


def coverage(version: int) -> list[dims.Dimension]:
    if version < 7:
        return []
    return [dims.Dimension("approximation_mode", ("erf", "tanh"), dims.attr("approximation_mode", "erf"))]


ENTRY = OpEntry(schema=openvino_gelu.SCHEMA, ir_layer="Gelu", coverage=coverage,
                error_models={"y": OneReading(Model("ulp", ulps=16 + 4 + 1), versions=(2,),
                                              readings="the erf form or its tanh approximation")},
                summary="x * Phi(x) by its erf or tanh form, element-wise")
