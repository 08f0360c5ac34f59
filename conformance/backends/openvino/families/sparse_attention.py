"""OpenVINO builders of QwenSparseAttention-17, BlockSparseAttention-17 (opset17), MOE-16 (opset16) and BevPoolV2-1
(a page in no opset listing: written at opset1, its version). Every input a Parameter. The installed Python API has
none of their factories: the opset column answers ``unsupported`` and the IR column writes the layer for OpenVINO's
reader, which decides.
"""

from __future__ import annotations

from conformance.backends.openvino.families.strings import given
from conformance.backends.openvino.opset import OpsetBuilder

#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "QwenSparseAttention": given("QwenSparseAttention", "qwen_sparse_attention", {17: "openvino.opset17"},
                                 attributes=("compress_ratio", "token_budget", "index_element_type")),
    "BlockSparseAttention": given("BlockSparseAttention", "block_sparse_attention", {17: "openvino.opset17"},
                                  attributes=("block_size", "causal")),
    "MOE": given("MOE", "moe", {16: "openvino.opset16"}),
    "BevPoolV2": given("BevPoolV2", "bev_pool_v2", {1: "openvino.opset1"}),
}
