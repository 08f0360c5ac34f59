"""OpenVINO builders of the embedding bags (EmbeddingBagOffsetsSum-3, EmbeddingBagOffsets-15,
EmbeddingBagPackedSum-3, EmbeddingBagPacked-15, EmbeddingSegmentsSum-3): the inputs the case gives (the optional
default_index and per_sample_weights trail), Parameters but EmbeddingSegmentsSum's num_segments, a Constant (the
output's extent)."""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _bags(op: str, factory: str, version: int, constant_ports: tuple[int, ...] = ()) -> GivenInputs:
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        schema = ops.entry(case.domain, case.op).schema
        unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        keywords = {a.name: case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)}
        return getattr(opset, factory)(*inputs, **keywords)


    return GivenInputs(opsets={version: f"openvino.opset{version}"}, build=build, dtypes_at=schema_dtypes(op),
                       dtype_note="takes any numeric type as emb_table, as its schema's constraint",
                       constant_ports=constant_ports)


#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "EmbeddingBagOffsetsSum": _bags("EmbeddingBagOffsetsSum", "embedding_bag_offsets_sum", 3),
    "EmbeddingBagOffsets": _bags("EmbeddingBagOffsets", "embedding_bag_offsets", 15),
    "EmbeddingBagPackedSum": _bags("EmbeddingBagPackedSum", "embedding_bag_packed_sum", 3),
    "EmbeddingBagPacked": _bags("EmbeddingBagPacked", "embedding_bag_packed", 15),
    "EmbeddingSegmentsSum": _bags("EmbeddingSegmentsSum", "embedding_segments_sum", 3, constant_ports=(3,)),
}
