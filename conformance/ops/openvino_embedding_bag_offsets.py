"""OpenVINO EmbeddingBagOffsets (reference/openvino_embedding_bag_offsets.py holds the semantics): sums or means of
bags of embedding rows by offsets. Judged by the accumulation bound, K the largest bag, one rounding more for the
mean's division (a sum gets it too: one model per output), at the weighted rows' magnitudes.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_embedding_bag_offsets

ENTRY = OpEntry(schema=openvino_embedding_bag_offsets.SCHEMA, error_models={"output": Model("accumulate", roundings=1)},
                ir_layer="EmbeddingBagOffsets", layout_inputs=(),
                summary="sums or means of bags of embedding rows by offsets")
