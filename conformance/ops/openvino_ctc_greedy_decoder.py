"""OpenVINO CTCGreedyDecoder (reference/openvino_ctc_greedy_decoder.py holds the semantics): decoded classes, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_ctc_greedy_decoder

ENTRY = OpEntry(schema=openvino_ctc_greedy_decoder.SCHEMA, error_models={"output": "exact"},
                ir_layer="CTCGreedyDecoder",
                layout_inputs=(), summary="best-path CTC decoding under a sequence mask")
