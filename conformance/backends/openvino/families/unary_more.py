"""OpenVINO builders of the one-tensor ops that landed after the first element-wise set: Atanh-3 (first listed
in opset4, as Acosh-3 and Asinh-3), Identity-15/16 and ErfInv-16/17 (each version in the opset of its number:
Identity-15's and ErfInv-16's pages are in no opset listing). Where the installed Python API lacks the module or
the factory, the opset column answers ``unsupported`` and the IR column writes the layer for OpenVINO's reader.
"""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _unary(op: str, factory: str, opsets: dict[int, str]) -> OpsetBuilder:
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        unknown = sorted(set(case.attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        make = getattr(opset, factory, None)
        if make is None:
            raise Unsupported(f"the installed OpenVINO's Python {opset.__name__} has no {factory} ({case.op}-"
                              f"{case.version} is read from IR only)")
        return make(inputs[0])


    return OpsetBuilder(opsets=opsets, build=build, dtypes_at=schema_dtypes(op),
                        dtype_note="takes the types its schema's constraint names")


#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "Atanh": _unary("Atanh", "atanh", {3: "openvino.opset4"}),
    "Identity": _unary("Identity", "identity", {15: "openvino.opset15", 16: "openvino.opset16"}),
    "ErfInv": _unary("ErfInv", "erf_inv", {16: "openvino.opset16", 17: "openvino.opset17"}),
}
