"""OpenVINO StringTensorUnpack (reference/openvino_string_tensor_unpack.py holds the semantics): strings as their
UTF-8 bytes laid end to end and each one's byte range. Data movement and integers: exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_string_tensor_unpack

ENTRY = OpEntry(schema=openvino_string_tensor_unpack.SCHEMA,
                error_models={"begins": "exact", "ends": "exact", "symbols": "exact"},
                ir_layer="StringTensorUnpack", layout_inputs=(),
                summary="the UTF-8 bytes of strings laid end to end and each string's byte range")
