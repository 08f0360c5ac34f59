"""OpenVINO VariadicSplit (reference/openvino_variadic_split.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_variadic_split

ENTRY = OpEntry(schema=openvino_variadic_split.SCHEMA, error_models={"output": "exact"}, ir_layer="VariadicSplit",
                layout_inputs=(),
                summary="chunks of split_lengths along axis (one -1 takes the rest)")
