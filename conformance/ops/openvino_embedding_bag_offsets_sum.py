"""OpenVINO EmbeddingBagOffsetsSum (reference/openvino_embedding_bag_offsets_sum.py holds the semantics): sums of bags
of embedding rows by offsets. Judged by the accumulation bound, K the largest bag, at the weighted rows' magnitudes.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_embedding_bag_offsets_sum

ENTRY = OpEntry(schema=openvino_embedding_bag_offsets_sum.SCHEMA, error_models={"output": "accumulate"},
                ir_layer="EmbeddingBagOffsetsSum", layout_inputs=(),
                summary="sums of bags of embedding rows by offsets")
