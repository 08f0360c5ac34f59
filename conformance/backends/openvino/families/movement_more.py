"""OpenVINO builders of ReverseSequence-1, GatherTree-1, ExtractImagePatches-3 and SliceScatter-15: every input a
Parameter (the lengths, parents and end token are values the op reads at run time) but SliceScatter's slice
(Constants), the attributes passed as the factories name them."""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _given(op: str, version: int, call: Any, constant_ports: tuple[int, ...] = ()) -> GivenInputs:
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        schema = ops.entry(case.domain, case.op).schema
        unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
        missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
        if unknown or missing:
            raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} it "
                              f"does not define or without required {missing}")
        values = {a.name: case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)}
        return call(opset, inputs, values)


    return GivenInputs(opsets={version: f"openvino.opset{version}"}, build=build, dtypes_at=schema_dtypes(op),
                       dtype_note="takes the types its schema's constraint names", constant_ports=constant_ports)


#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "ReverseSequence": _given("ReverseSequence", 1, lambda opset, i, a: opset.reverse_sequence(
        i[0], i[1], a["batch_axis"], a["seq_axis"])),
    "GatherTree": _given("GatherTree", 1, lambda opset, i, a: opset.gather_tree(*i)),
    "ExtractImagePatches": _given("ExtractImagePatches", 3, lambda opset, i, a: opset.extract_image_patches(
        i[0], list(a["sizes"]), list(a["strides"]), list(a["rates"]), a["auto_pad"])),
    # start, stop, step and axes Constants: the updated region's shape is checked against them when built
    "SliceScatter": _given("SliceScatter", 15, lambda opset, i, a: opset.slice_scatter(*i),
                           constant_ports=(2, 3, 4, 5)),
}
