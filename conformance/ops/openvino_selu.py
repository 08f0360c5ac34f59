"""OpenVINO Selu (reference/openvino_selu.py holds the semantics): lambda * (x, or alpha * (e^x - 1) for x <= 0).
Judged: exp, a subtraction and two multiplies (3 + 1 + 1 + 1) + 1, measured at max(|y|, lambda * alpha) on the
negative branch (the reference's magnitude), as Elu.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_selu

ENTRY = OpEntry(schema=openvino_selu.SCHEMA, error_models={"y": Model("ulp", ulps=3 + 1 + 1 + 1 + 1)},
                ir_layer="Selu", layout_inputs=(), summary="lambda * (x, or alpha * (e^x - 1) for x <= 0)")
