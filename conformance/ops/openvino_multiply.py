"""OpenVINO Multiply (reference/openvino_multiply.py holds the semantics), element-wise on two broadcast tensors.
Judged: correctly rounded (IEEE 754): the result equals the reference's one rounding.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_multiply

ENTRY = OpEntry(schema=openvino_multiply.SCHEMA, error_models={"y": "exact"}, ir_layer="Multiply", layout_inputs=(),
                summary="a * b after auto_broadcast, element-wise")
