"""OpenVINO Divide (reference/openvino_divide.py holds the semantics): a / b after auto_broadcast; integers floor
or truncated by m_pythondiv. Judged exact: IEEE 754's division is correctly rounded, integers exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_divide

ENTRY = OpEntry(schema=openvino_divide.SCHEMA, error_models={"y": "exact"}, ir_layer="Divide", layout_inputs=(),
                summary="a / b after auto_broadcast, element-wise (m_pythondiv: floor division of integers)")
