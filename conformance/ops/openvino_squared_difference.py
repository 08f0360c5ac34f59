"""OpenVINO SquaredDifference (reference/openvino_squared_difference.py holds the semantics), element-wise on two
broadcast tensors. Judged: (a - b) then its square: two correct roundings, 1.5 ULPs of y, + 0.5 for the reference's
own rounding.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_squared_difference

ENTRY = OpEntry(schema=openvino_squared_difference.SCHEMA, error_models={"y": Model("ulp", ulps=2)},
                ir_layer="SquaredDifference", layout_inputs=(),
                summary="(a - b)^2 after auto_broadcast, element-wise")
