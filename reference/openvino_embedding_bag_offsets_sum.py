"""OpenVINO EmbeddingBagOffsetsSum-3: the sums of bags of embedding rows, bags by offsets into 1-D indices
(reference/_embedding.py, reference/_embedding_groups.py: the page's semantics, its forbidden inputs and what it
leaves open)."""

from __future__ import annotations

from ._embedding import EMBEDDING_TYPES, INDEX_TYPES, embedding_op
from ._embedding_groups import by_offsets, offsets_rows
from .schema import Port, Schema

SCHEMA = Schema("openvino", "EmbeddingBagOffsetsSum", (3,),
                inputs=(Port("emb_table"),
                        Port("indices", dtypes=INDEX_TYPES),
                        Port("offsets", dtypes=INDEX_TYPES),
                        Port("default_index", dtypes=INDEX_TYPES, optional=True),
                        Port("per_sample_weights", optional=True)),
                outputs=(Port("output"),), types=((0, EMBEDDING_TYPES),))
VERSIONS = SCHEMA.versions

output_shapes, evaluate, window_elements = embedding_op(SCHEMA, by_offsets, offsets_rows, weights_port=4)
