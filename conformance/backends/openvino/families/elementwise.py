"""OpenVINO builders of the element-wise ops (of one tensor, of two broadcast ones) and MatMul: the opset factory
named, its attributes passed positionally after the data in the schema's order, the types the op's schema allows.

Anything the opset API cannot express (a missing required attribute, one the version does not define) is
``Unsupported`` here; the IR path (ir.py) puts such a layer in front of OpenVINO, and its reader decides.
"""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import PARAMETER, OpsetBuilder
from conformance.model import CaseInstance


def unary(op: str, factory: str, opsets: dict[int, str]) -> OpsetBuilder:
    """The builder of openvino-domain ``op``: ``opsetN.<factory>(data, *attributes)``."""

    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        schema = ops.entry(case.domain, case.op).schema
        unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
        missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
        if unknown or missing:
            raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} "
                              f"it does not define or without required {missing}")
        values = [case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)]
        return getattr(opset, factory)(inputs[0], *values)

    return OpsetBuilder(opsets=opsets, build=build, dtypes_at=schema_dtypes(op),
                        dtype_note="takes the types its schema's constraint names")



def binary(op: str, factory: str, opsets: dict[int, str]) -> OpsetBuilder:
    """The builder of the openvino-domain op of two tensors ``op``: ``opsetN.<factory>(a, b, auto_broadcast=...)``,
    both inputs Parameters."""

    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        unknown = sorted(set(case.attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        mode = str(case.attributes.get("auto_broadcast", "numpy"))
        return getattr(opset, factory)(inputs[0], inputs[1], auto_broadcast=mode.upper())

    return OpsetBuilder(opsets=opsets, build=build, roles=(PARAMETER, PARAMETER), dtypes_at=schema_dtypes(op),
                        dtype_note="takes the types its schema's constraint names")


def _matmul(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    unknown = sorted(set(case.attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
    if unknown:
        raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
    return opset.matmul(inputs[0], inputs[1], bool(case.attributes.get("transpose_a", False)),
                        bool(case.attributes.get("transpose_b", False)))


#: openvino-domain op -> its builder (builders.BUILDERS takes them all)
BUILDERS: dict[str, OpsetBuilder] = {
    "ReLU": unary("ReLU", "relu", {1: "openvino.opset1"}),
    "Clamp": unary("Clamp", "clamp", {1: "openvino.opset1"}),
    "Elu": unary("Elu", "elu", {1: "openvino.opset1"}),
    "Exp": unary("Exp", "exp", {1: "openvino.opset1"}),
    "Sigmoid": unary("Sigmoid", "sigmoid", {1: "openvino.opset1"}),
    "HSwish": unary("HSwish", "hswish", {4: "openvino.opset4"}),
    "HSigmoid": unary("HSigmoid", "hsigmoid", {5: "openvino.opset5"}),
    "Mish": unary("Mish", "mish", {4: "openvino.opset4"}),
    "SoftSign": unary("SoftSign", "softsign", {9: "openvino.opset9"}),
    "SoftMax": unary("SoftMax", "softmax", {1: "openvino.opset1", 8: "openvino.opset8"}),
    "Gelu": unary("Gelu", "gelu", {2: "openvino.opset2", 7: "openvino.opset7"}),
    "SoftPlus": unary("SoftPlus", "softplus", {4: "openvino.opset4"}),
    "LogSoftmax": unary("LogSoftmax", "log_softmax", {5: "openvino.opset5"}),
    # arithmetic of one tensor (the Python API names Abs "absolute")
    **{op: unary(op, factory, {1: "openvino.opset1"}) for op, factory in (
        ("Abs", "absolute"), ("Ceiling", "ceiling"), ("Floor", "floor"), ("Negative", "negative"), ("Sign", "sign"),
        ("Sin", "sin"), ("Cos", "cos"), ("Tan", "tan"), ("Sinh", "sinh"), ("Cosh", "cosh"), ("Tanh", "tanh"),
        ("Asin", "asin"), ("Acos", "acos"), ("Atan", "atan"), ("Erf", "erf"), ("Log", "log"), ("Sqrt", "sqrt"))},
    # Acosh-3 and Asinh-3: the Python API builds them from opset4 (the node's version_id says opset4)
    **{op: unary(op, factory, {3: "openvino.opset4"}) for op, factory in (("Acosh", "acosh"), ("Asinh", "asinh"))},
    # arithmetic of two tensors, broadcast by auto_broadcast
    **{op: binary(op, factory, {1: "openvino.opset1"}) for op, factory in (
        ("Add", "add"), ("Subtract", "subtract"), ("Multiply", "multiply"), ("Maximum", "maximum"),
        ("Minimum", "minimum"), ("SquaredDifference", "squared_difference"))},
    "MatMul": OpsetBuilder(opsets={1: "openvino.opset1"}, build=_matmul, roles=(PARAMETER, PARAMETER),
                           dtypes_at=schema_dtypes("MatMul"),
                           dtype_note="takes the types its schema's constraint names"),
}
