"""OpenVINO QwenSparseAttention
(reference/openvino_qwen_sparse_attention.py holds the semantics). Judged as ScaledDotProductAttention-13 is:
the accumulation bound, K = S, its magnitude the scores' error carried through the softmax and the two products
(reference/_sparse_attention.py)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_qwen_sparse_attention

ENTRY = OpEntry(schema=openvino_qwen_sparse_attention.SCHEMA,
                error_models={"output": "accumulate", "indices": "exact"}, ir_layer="QwenSparseAttention",
                layout_inputs=(), summary="causal GQA over the top-scoring key blocks and the query's own block")
