"""OpenVINO Add (reference/openvino_add.py holds the semantics), element-wise on two broadcast tensors. Judged:
correctly rounded (IEEE 754): the result equals the reference's one rounding.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_add

ENTRY = OpEntry(schema=openvino_add.SCHEMA, error_models={"y": "exact"}, ir_layer="Add", layout_inputs=(),
                summary="a + b after auto_broadcast, element-wise")
