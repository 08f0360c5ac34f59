"""OpenVINO EmbeddingSegmentsSum (reference/openvino_embedding_segments_sum.py holds the semantics): sums of segments
of embedding rows by segment_ids. Judged by the accumulation bound, K the largest bag, at the weighted rows'
magnitudes.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_embedding_segments_sum

ENTRY = OpEntry(schema=openvino_embedding_segments_sum.SCHEMA, error_models={"output": "accumulate"},
                ir_layer="EmbeddingSegmentsSum", layout_inputs=(),
                summary="sums of segments of embedding rows by segment_ids")
