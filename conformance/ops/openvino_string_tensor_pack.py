"""OpenVINO StringTensorPack (reference/openvino_string_tensor_pack.py holds the semantics): the strings at byte
ranges of UTF-8 symbols. String data movement, judged exactly (strings compared for equality)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_string_tensor_pack

ENTRY = OpEntry(schema=openvino_string_tensor_pack.SCHEMA, error_models={"output": "exact"},
                ir_layer="StringTensorPack", layout_inputs=(),
                summary="the strings at byte ranges [begins, ends) of UTF-8 symbols")
