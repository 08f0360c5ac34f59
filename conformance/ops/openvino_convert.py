"""OpenVINO Convert (reference/openvino_convert.py holds the semantics): the input in destination_type.
Judged exact: one IEEE conversion, or an integer value, where the text specifies it.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_convert

ENTRY = OpEntry(schema=openvino_convert.SCHEMA, error_models={"y": "exact"}, ir_layer="Convert",
                summary="the input converted to destination_type, element-wise")
