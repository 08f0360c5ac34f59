"""OpenVINO builders of the element-wise ops of issue 49's second element-wise batch: comparisons, logical and
bitwise ops, Select, Divide/FloorMod/Mod/Power/Round, the activations of several inputs, Convert and ConvertLike.

Every tensor input is a Parameter but where the generic assembly would type it wrongly: Select's boolean
``cond`` is a Constant (a Parameter at port 0 takes the instance's type), as are ConvertLike's ``like`` (only its
type matters) and the scalar parameters of Selu, HardSigmoid and Swish (OpenVINO's shape inference reads nothing
from them, but a Constant keeps them the values the case gives). What the opset API cannot express is
``Unsupported`` with the reason; the IR path writes the layer anyway and its reader decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.families.elementwise import binary
from conformance.backends.openvino.opset import CONSTANT, FLOAT_TYPES, PARAMETER, OpsetBuilder
from conformance.model import CaseInstance

_NOTE = "takes the types its schema's constraint names"
Build = Callable[[Any, list[Any], CaseInstance, dict[str, Any]], Any]


def _attributes(case: CaseInstance) -> dict[str, Any]:
    """The case's attributes with the version's defaults; Unsupported for one the version does not define or a
    missing required one (the opset API has no way to pass either)."""
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
    if unknown or missing:
        raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} it "
                          f"does not define or without required {missing}")
    return {a.name: case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)}


def node(op: str, opsets: dict[int, str], build: Build, roles: tuple[str, ...] | None = None) -> OpsetBuilder:
    """The builder of ``op``: ``build(opset, inputs, case, attributes)``, inputs in port order by ``roles``."""

    def built(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        return build(opset, inputs, case, _attributes(case))

    return OpsetBuilder(opsets=opsets, build=built, roles=roles, dtypes_at=schema_dtypes(op), dtype_note=_NOTE)


def _unary(factory: str) -> Build:
    return lambda opset, inputs, case, attributes: getattr(opset, factory)(inputs[0])


def _is_inf(opset: Any, inputs: list[Any], case: CaseInstance, attributes: dict[str, Any]) -> Any:
    return opset.is_inf(inputs[0], {k: bool(v) for k, v in attributes.items()})


def _select(opset: Any, inputs: list[Any], case: CaseInstance, attributes: dict[str, Any]) -> Any:
    return opset.select(inputs[0], inputs[1], inputs[2], auto_broadcast=str(attributes["auto_broadcast"]))


def _logical_xor(opset: Any, inputs: list[Any], case: CaseInstance, attributes: dict[str, Any]) -> Any:
    built = opset.logical_xor(inputs[0], inputs[1], auto_broadcast=str(attributes["auto_broadcast"]).upper())
    if built.get_type_info().version_id != "opset1":  # every opsetN module builds the node that says opset2
        raise Unsupported("the opset API builds LogicalXor as an opset2 node at every opset (opset1.rst lists "
                          "LogicalXor-1); the IR column reads an opset1 layer")
    return built


def _divide(opset: Any, inputs: list[Any], case: CaseInstance, attributes: dict[str, Any]) -> Any:
    # the factory has no m_pythondiv: it builds the default, true; the attribute is for integer types only
    if attributes["m_pythondiv"] is not True and case.dtype not in FLOAT_TYPES:
        raise Unsupported("the opset API's divide has no m_pythondiv parameter (it builds m_pythondiv=true)")
    return opset.divide(inputs[0], inputs[1], auto_broadcast=str(attributes["auto_broadcast"]).upper())


def _round(opset: Any, inputs: list[Any], case: CaseInstance, attributes: dict[str, Any]) -> Any:
    return opset.round(inputs[0], str(attributes["mode"]))


def _with_inputs(factory: str) -> Build:
    return lambda opset, inputs, case, attributes: getattr(opset, factory)(*inputs)


def _scalars(op: str, opsets: dict[int, str], factory: str, one_input: str | None = None) -> OpsetBuilder:
    """data a Parameter, every further input (alpha, lambda, beta) a Constant holding the case's values.
    ``one_input``: the opset whose node factory builds the op of data alone (opset4.swish without beta adds a
    float32 beta of its own, which a float16, bfloat16 or float64 data then refuses)."""

    def built(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        _attributes(case)
        if one_input is not None and len(inputs) == 1:
            from openvino.utils.node_factory import NodeFactory

            return NodeFactory(one_input).create(op, [inputs[0].output(0)], {})
        return getattr(opset, factory)(*inputs)

    return OpsetBuilder(opsets=opsets, build=built, constants=lambda case, arrays: list(arrays[1:]),
                        dtypes_at=schema_dtypes(op), dtype_note=_NOTE)


def _convert(opset: Any, inputs: list[Any], case: CaseInstance, attributes: dict[str, Any]) -> Any:
    return opset.convert(inputs[0], str(attributes["destination_type"]))


V1, V4, V5, V10 = {1: "openvino.opset1"}, {4: "openvino.opset4"}, {5: "openvino.opset5"}, {10: "openvino.opset10"}
P2 = (PARAMETER, PARAMETER)

#: openvino-domain op -> its builder (builders.BUILDERS takes them all)
BUILDERS: dict[str, OpsetBuilder] = {
    # comparisons, logical ops of two tensors: a boolean out, auto_broadcast
    **{op: binary(op, factory, V1) for op, factory in (
        ("Equal", "equal"), ("NotEqual", "not_equal"), ("Greater", "greater"), ("GreaterEqual", "greater_equal"),
        ("Less", "less"), ("LessEqual", "less_equal"), ("LogicalAnd", "logical_and"), ("LogicalOr", "logical_or"))},
    "LogicalXor": node("LogicalXor", V1, _logical_xor, roles=P2),
    "LogicalNot": node("LogicalNot", V1, _unary("logical_not")),
    "IsFinite": node("IsFinite", V10, _unary("is_finite")),
    "IsNaN": node("IsNaN", V10, _unary("is_nan")),
    "IsInf": node("IsInf", V10, _is_inf),
    "Select": node("Select", V1, _select, roles=(CONSTANT, PARAMETER, PARAMETER)),
    # arithmetic (Atan2-17 has no builder: the installed OpenVINO has no Atan2 - no opset17.atan2, and its IR reader
    # says "Opset opset17 doesn't contain the operation with type: Atan2"; both columns unsupported)
    "Divide": node("Divide", V1, _divide, roles=P2),
    **{op: binary(op, factory, V1) for op, factory in (("FloorMod", "floor_mod"), ("Mod", "mod"),
                                                       ("Power", "power"))},
    "Round": node("Round", V5, _round),
    # activations whose parameters are inputs: the slope a Parameter, the scalars Constants (as many as given)
    "PReLU": node("PReLU", V1, _with_inputs("prelu"), roles=P2),
    "Selu": _scalars("Selu", V1, "selu"),
    "HardSigmoid": _scalars("HardSigmoid", V1, "hard_sigmoid"),
    "Swish": _scalars("Swish", V4, "swish", one_input="opset4"),
    # bitwise
    **{op: binary(op, factory, {13: "openvino.opset13"}) for op, factory in (
        ("BitwiseAnd", "bitwise_and"), ("BitwiseOr", "bitwise_or"), ("BitwiseXor", "bitwise_xor"))},
    "BitwiseNot": node("BitwiseNot", {13: "openvino.opset13"}, _unary("bitwise_not")),
    **{op: binary(op, factory, {15: "openvino.opset15"}) for op, factory in (
        ("BitwiseLeftShift", "bitwise_left_shift"), ("BitwiseRightShift", "bitwise_right_shift"))},
    # type conversion. ConvertLike's data is a Constant: a Parameter at port 0 takes the instance's type, which
    # is like's where like is a float (a case's float tensors follow the instance); like is a Parameter of its own
    "Convert": node("Convert", V1, _convert),
    "ConvertLike": node("ConvertLike", V1, _with_inputs("convert_like"), roles=(CONSTANT, PARAMETER)),
}
