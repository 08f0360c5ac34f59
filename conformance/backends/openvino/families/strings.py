"""OpenVINO builders of the string ops: StringTensorPack-15, StringTensorUnpack-15 (opset15) and
SparseFillEmptyRowsUnpackedString-16 (opset16). Every input is a Parameter (none fixes an output extent the
runtime must know ahead: the output shapes are the offsets' shape, or data-dependent byte counts). A string tensor is
fed as NumPy's ``str`` array and read back as one (opset.py). Where the installed Python API lacks the factory, the
opset column answers ``unsupported`` and the IR column writes the layer for OpenVINO's reader.
"""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def given(op: str, factory: str, opsets: dict[int, str], constant_ports: tuple[int, ...] = (),
          attributes: tuple[str, ...] = ()) -> OpsetBuilder:
    """A builder passing every given input, then the named attributes (schema defaults filled in) as keywords."""
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        schema = ops.entry(case.domain, case.op).schema
        unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        make = getattr(opset, factory, None)
        if make is None:
            raise Unsupported(f"the installed OpenVINO's Python {opset.__name__} has no {factory} ({case.op}-"
                              f"{case.version} is read from IR only)")
        defaults = {a.name: a.default for a in schema.attributes_at(case.version)}
        return make(*inputs, **{name: case.attributes.get(name, defaults.get(name)) for name in attributes})


    return GivenInputs(opsets=opsets, build=build, dtypes_at=schema_dtypes(op), constant_ports=constant_ports,
                       dtype_note="takes the types its schema's constraint names")


#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "StringTensorPack": given("StringTensorPack", "string_tensor_pack", {15: "openvino.opset15"}),
    "StringTensorUnpack": given("StringTensorUnpack", "string_tensor_unpack", {15: "openvino.opset15"}),
    # opset16's Python API has sparse_fill_empty_rows but no unpacked-string factory: the IR column decides
    "SparseFillEmptyRowsUnpackedString": given("SparseFillEmptyRowsUnpackedString",
                                               "sparse_fill_empty_rows_unpacked_string", {16: "openvino.opset16"}),
}
