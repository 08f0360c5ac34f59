"""OpenVINO builders of the infrastructure ops a model is made of: Parameter-1 and Constant-1 (the model's input
node itself: the Parameter build_model makes for the case's value, or the Constant holding it; opset terminal
SOURCE) and Result-1 (the model's output node: terminal SINK). The opset column builds a Parameter or a Constant
from the tensor it holds, so attributes that describe another tensor (a negative case) are written as IR only.
ReadValue-3/6 with its variable's Assign after it (the CPU plugin runs no ReadValue without its Assign: "doesn't
have sibling output"), one inference: the first, whose value is the init_value. Assign has no builder: OpenVINO's
Assign node has no output, which the text gives it (docs/spec-notes.md).
"""

from __future__ import annotations

from typing import Any

from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs
from conformance.backends.openvino.opset import CONSTANT, ELEMENT_TYPES, PARAMETER, SINK, SOURCE, OpsetBuilder
from conformance.model import CaseInstance

_EVERY_TYPE = dict(ELEMENT_TYPES)


def _source(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    node = inputs[0]
    attributes = case.attributes
    kind = node.get_output_element_type(0).get_type_name()
    shape = [int(d) for d in node.get_output_partial_shape(0).to_shape()]
    if attributes.get("element_type") != kind or list(attributes.get("shape", [])) != shape:
        raise Unsupported(f"the opset column builds the {case.op} from the tensor it holds ({kind} {shape}); "
                          f"attributes describing another (element_type={attributes.get('element_type')!r}, "
                          f"shape={attributes.get('shape')!r}) are written as IR only")
    unknown = sorted(set(attributes) - {"element_type", "shape", "offset", "size"})
    if unknown:
        raise Unsupported(f"the opset API has no {case.op} attribute(s) {unknown}")
    if case.op == "Constant" and (attributes.get("size") != case_bytes(case) or "offset" not in attributes):
        # where the bytes are in the weights is the IR's matter: the opset Constant holds the tensor itself
        raise Unsupported(f"the opset column builds the Constant from its tensor ({case_bytes(case)} bytes); offset "
                          f"{attributes.get('offset')!r} and size {attributes.get('size')!r} are written as IR only")
    return node


def case_bytes(case: CaseInstance) -> int:
    """The byte count of the tensor a source op holds (the case's value at its claimed shape)."""
    import numpy as np

    width = 2 if case.dtype == "bfloat16" else np.dtype(case.dtype).itemsize
    return width * int(np.prod(case.input_shapes[0], dtype=np.int64))


def _result(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    if case.attributes:
        raise Unsupported(f"the opset API's Result takes no attributes ({sorted(case.attributes)})")
    return opset.result(inputs[0])


def _read_value(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    import openvino

    a = dict(case.attributes)
    known = {"variable_id", "variable_type", "variable_shape"} if case.version >= 6 else {"variable_id"}
    if set(a) - known:
        raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {sorted(set(a) - known)}")
    if "variable_id" not in a:
        raise Unsupported("the opset API makes no variable without its variable_id (the IR column writes the layer)")
    if case.version >= 6:
        shape = openvino.PartialShape([openvino.Dimension(d) if d >= 0 else openvino.Dimension()
                                       for d in a["variable_shape"]])
        node = opset.read_value(*inputs[:1], a["variable_id"], getattr(openvino.Type, a["variable_type"]), shape)
    else:
        node = opset.read_value(inputs[0], a["variable_id"])
    return node, [opset.assign(node, a["variable_id"])]


_NOTE = "holds any element type"

#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "Parameter": OpsetBuilder(opsets={1: "openvino.opset1"}, build=_source, roles=(PARAMETER,), dtypes=_EVERY_TYPE,
                              dtype_note=_NOTE, terminal=SOURCE),
    "Constant": OpsetBuilder(opsets={1: "openvino.opset1"}, build=_source, roles=(CONSTANT,), dtypes=_EVERY_TYPE,
                             dtype_note=_NOTE, terminal=SOURCE),
    "ReadValue": GivenInputs(opsets={3: "openvino.opset3", 6: "openvino.opset6"}, build=_read_value,
                             dtypes=_EVERY_TYPE, dtype_note=_NOTE, partner=("Assign", ("variable_id",))),
    "Result": OpsetBuilder(opsets={1: "openvino.opset1"}, build=_result, roles=(PARAMETER,), dtypes=_EVERY_TYPE,
                           dtype_note=_NOTE, terminal=SINK),
}
