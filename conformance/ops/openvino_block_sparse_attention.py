"""OpenVINO BlockSparseAttention
(reference/openvino_block_sparse_attention.py holds the semantics). Judged as ScaledDotProductAttention-13 is:
the accumulation bound, K = S, its magnitude the scores' error carried through the softmax and the two products
(reference/_sparse_attention.py)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_block_sparse_attention

ENTRY = OpEntry(schema=openvino_block_sparse_attention.SCHEMA, error_models={"output": "accumulate"},
                ir_layer="BlockSparseAttention", layout_inputs=(),
                summary="attention of each query block over its listed key blocks (mask, causal, scale)")
