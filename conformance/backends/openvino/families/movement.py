"""OpenVINO builders of the shape and data-movement ops (Reshape, Squeeze, Unsqueeze, ShapeOf, Transpose, Concat,
Split, VariadicSplit, Tile, Broadcast, Pad, Reverse, Roll, DepthToSpace, SpaceToDepth, ShuffleChannels,
BatchToSpace, SpaceToBatch).

The data input is a Parameter; every shape, axes, pads or order input is a Constant holding the case's literal
values in their own integer type, so OpenVINO's shape inference makes static shapes of them (what it makes of
them is what runs: the case's claimed dims are never passed). Concat's inputs are all Parameters. What the opset
API cannot express (an attribute the version does not define, a missing required one, an op the Python API has
no factory for) is ``Unsupported``; the IR path still writes such a layer and OpenVINO's reader decides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import ELEMENT_TYPES, PARAMETER, OpInput, OpsetBuilder
from conformance.model import CaseInstance

#: (opset module, input nodes in port order, case, the version's attributes with defaults) -> the op's node
Make = Callable[[Any, list[Any], CaseInstance, dict[str, Any]], Any]


def _attributes(case: CaseInstance) -> dict[str, Any]:
    """The case's attributes with the version's defaults; Unsupported for what the opset API cannot express."""
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
    if unknown or missing:
        raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} "
                          f"it does not define or without required {missing}")
    return {a.name: case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)}


def _integer_constants(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """Every input after the data one, as the case gives it (its own integer type: a Constant of OpenVINO's)."""
    for array in inputs[1:]:
        if array.dtype.name not in ELEMENT_TYPES:
            raise Unsupported(f"{case.op}: an input of type {array.dtype} (no OpenVINO element type in the harness)")
    return list(inputs[1:])



def builder(op: str, opsets: dict[int, str], make: Make) -> OpsetBuilder:
    """The data input a Parameter, the others Constants; ``make`` builds the node from them."""

    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        return make(opset, inputs, case, _attributes(case))

    return OpsetBuilder(opsets=opsets, build=build, constants=_integer_constants, dtypes_at=schema_dtypes(op),
                        dtype_note="takes the types its schema's constraint names")


@dataclass(frozen=True)
class AllParameters(OpsetBuilder):
    """An op of any number of data inputs (Concat): each a Parameter of the instance's type."""

    def op_inputs(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[OpInput]:
        names = case.input_names
        return [OpInput(port, PARAMETER, array, names[port] if port < len(names) else f"input{port}")
                for port, array in enumerate(inputs)]


BUILDERS: dict[str, OpsetBuilder] = {
    "Reshape": builder("Reshape", {1: "openvino.opset1"},
                       lambda o, i, c, a: o.reshape(i[0], i[1], bool(a["special_zero"]))),
    "Squeeze": builder("Squeeze", {1: "openvino.opset1", 15: "openvino.opset15"},
                       lambda o, i, c, a: _squeeze(o, i, c, a)),
    "Unsqueeze": builder("Unsqueeze", {1: "openvino.opset1"}, lambda o, i, c, a: o.unsqueeze(i[0], i[1])),
    "ShapeOf": builder("ShapeOf", {1: "openvino.opset1", 3: "openvino.opset3"},
                       lambda o, i, c, a: o.shape_of(i[0], str(a["output_type"])) if c.version >= 3
                       else o.shape_of(i[0])),
    "Transpose": builder("Transpose", {1: "openvino.opset1"}, lambda o, i, c, a: o.transpose(i[0], i[1])),
    "Concat": AllParameters(opsets={1: "openvino.opset1"},
                            build=lambda o, i, c: o.concat(list(i), int(_attributes(c)["axis"])),
                            dtypes_at=schema_dtypes("Concat"),
                            dtype_note="takes the types its schema's constraint names"),
    "Split": builder("Split", {1: "openvino.opset1"}, lambda o, i, c, a: o.split(i[0], i[1], int(a["num_splits"]))),
    "VariadicSplit": builder("VariadicSplit", {1: "openvino.opset1"},
                             lambda o, i, c, a: o.variadic_split(i[0], i[1], i[2])),
    "Tile": builder("Tile", {1: "openvino.opset1"}, lambda o, i, c, a: o.tile(i[0], i[1])),
    "Broadcast": builder("Broadcast", {1: "openvino.opset1", 3: "openvino.opset3"},
                         lambda o, i, c, a: _broadcast(o, i, c, a)),
    "Pad": builder("Pad", {1: "openvino.opset1", 12: "openvino.opset12"},
                   lambda o, i, c, a: o.pad(i[0], i[1], i[2], str(a["pad_mode"]), i[3] if len(i) > 3 else None)),
    # the spec lists Reverse-1 in opset3-5 only; the runtime has it in opset1 only (NodeFactory: no opset3 Reverse)
    "Reverse": builder("Reverse", {1: "openvino.opset3"}, lambda o, i, c, a: _reverse(i, a)),
    "Roll": builder("Roll", {7: "openvino.opset7"}, lambda o, i, c, a: o.roll(i[0], i[1], i[2])),
    "DepthToSpace": builder("DepthToSpace", {1: "openvino.opset1"},
                            lambda o, i, c, a: o.depth_to_space(i[0], str(a["mode"]), int(a["block_size"]))),
    "SpaceToDepth": builder("SpaceToDepth", {1: "openvino.opset1"},
                            lambda o, i, c, a: o.space_to_depth(i[0], str(a["mode"]), int(a["block_size"]))),
    # the listing pages put ShuffleChannels-1 in opset3 first; the node the runtime builds says opset1
    "ShuffleChannels": builder("ShuffleChannels", {1: "openvino.opset3"}, lambda o, i, c, a: _shuffle(o, i, a)),
    "BatchToSpace": builder("BatchToSpace", {2: "openvino.opset2"},
                            lambda o, i, c, a: o.batch_to_space(i[0], i[1], i[2], i[3])),
    "SpaceToBatch": builder("SpaceToBatch", {2: "openvino.opset2"},
                            lambda o, i, c, a: o.space_to_batch(i[0], i[1], i[2], i[3])),
}


def _shuffle(opset: Any, inputs: list[Any], attrs: dict[str, Any]) -> Any:
    node = opset.shuffle_channels(inputs[0], int(attrs["axis"]), int(attrs["group"]))
    if node.get_type_info().version_id != "opset3":  # the IR path writes version="opset3", which the reader takes
        raise Unsupported(f"the opset listing pages put ShuffleChannels-1 in opset3 first; the runtime's node says "
                          f"{node.get_type_info().version_id}")
    return node


def _broadcast(opset: Any, inputs: list[Any], case: CaseInstance, attrs: dict[str, Any]) -> Any:
    mapping = inputs[2] if len(inputs) > 2 else None
    mode = str(attrs["mode"]).upper()
    if mode == "EXPLICIT" and mapping is None:  # the factory fails in Python (OVTypeError), not in OpenVINO
        raise Unsupported("the opset API cannot build an explicit Broadcast without axes_mapping")
    if case.version >= 3:
        return opset.broadcast(inputs[0], inputs[1], mapping, broadcast_spec=mode)
    return opset.broadcast(inputs[0], inputs[1], mapping, mode=mode)


def _squeeze(opset: Any, inputs: list[Any], case: CaseInstance, attrs: dict[str, Any]) -> Any:
    if case.version >= 15:
        return opset.squeeze(inputs[0], inputs[1] if len(inputs) > 1 else None, bool(attrs["allow_axis_skip"]))
    return opset.squeeze(inputs[0], inputs[1]) if len(inputs) > 1 else _factory("opset1", "Squeeze", inputs, {})


def _reverse(inputs: list[Any], attrs: dict[str, Any]) -> Any:
    node = _factory("opset1", "Reverse", inputs, {"mode": str(attrs["mode"])})
    raise Unsupported(f"the opset listing pages put Reverse-1 in opset3 (first), the runtime builds it as an "
                      f"{node.get_type_info().version_id} node only (no opset3 Reverse in its NodeFactory)")


def _factory(opset: str, op: str, inputs: list[Any], attributes: dict[str, Any]) -> Any:
    """A node through OpenVINO's NodeFactory where the Python opset API has no factory (Reverse-1) or refuses an
    input the op makes optional (Squeeze-1 without axes)."""
    from openvino.utils.node_factory import NodeFactory

    return NodeFactory(opset).create(op, [node.output(0) for node in inputs], attributes)
