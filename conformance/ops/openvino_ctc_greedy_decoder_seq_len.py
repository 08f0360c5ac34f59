"""OpenVINO CTCGreedyDecoderSeqLen (reference/openvino_ctc_greedy_decoder_seq_len.py holds the semantics): decoded
classes and their counts, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_ctc_greedy_decoder_seq_len

ENTRY = OpEntry(schema=openvino_ctc_greedy_decoder_seq_len.SCHEMA,
                error_models={"decoded": "exact", "decoded_length": "exact"}, ir_layer="CTCGreedyDecoderSeqLen",
                layout_inputs=(), summary="best-path CTC decoding with sequence lengths and a blank index")
