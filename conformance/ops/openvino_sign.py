"""OpenVINO Sign (reference/openvino_sign.py holds the semantics), element-wise. Judged: no arithmetic: the result is
exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_sign

ENTRY = OpEntry(schema=openvino_sign.SCHEMA, error_models={"y": "exact"}, ir_layer="Sign",
                summary="sign, element-wise")
