"""OpenVINO builders of the binary-search ops (Bucketize-3, SearchSorted-15): both inputs Parameters."""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import PARAMETER, OpsetBuilder
from conformance.model import CaseInstance


def _search(op: str, factory: str, version: int) -> OpsetBuilder:
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        schema = ops.entry(case.domain, case.op).schema
        unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        keywords = {a.name: case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)}
        return getattr(opset, factory)(inputs[0], inputs[1], **keywords)


    return OpsetBuilder(opsets={version: f"openvino.opset{version}"}, build=build, roles=(PARAMETER, PARAMETER),
                        dtypes_at=schema_dtypes(op), dtype_note="takes the types its schema's constraint names")


#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "Bucketize": _search("Bucketize", "bucketize", 3),
    "SearchSorted": _search("SearchSorted", "search_sorted", 15),
}
