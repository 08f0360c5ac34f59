"""OpenVINO ReverseSequence (reference/openvino_reverse_sequence.py holds the semantics): the first seq_lengths[i]
elements of each slice reversed. Data movement: exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reverse_sequence

ENTRY = OpEntry(schema=openvino_reverse_sequence.SCHEMA, error_models={"output": "exact"},
                ir_layer="ReverseSequence", layout_inputs=(),
                summary="the first seq_lengths[i] elements of each slice reversed")
