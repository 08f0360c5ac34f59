"""Exact ONNX lowerings of the OpenVINO element-wise ops, the softmaxes and MatMul: ``TABLE`` maps each op to the
ONNX op (or the few nodes) computing the same function, the equivalence stated on its line.

Exact means the same value for every input the case allows, read from both texts: where the ONNX op's formula,
broadcasting or type set is not OpenVINO's, the case is refused (``NoLowering``, its reason recorded as
``unsupported``) or lowered through the nodes that make it so. Common to every line (nodes.py, opsets.py):

- a case OpenVINO rejects by its attributes or types is never lowered (an ONNX model of it would be rejected for
  another reason, or not at all); one both texts reject alike (shapes that do not broadcast, MatMul's contracted
  extents, a softmax axis past the rank) is lowered, and the runtime must reject it;
- the opset is chosen per element type from the installed onnx's schemas: the ONNX op must take the type there
  (ReLU on unsigned integers, Ceiling on integers, MatMul on int8: ONNX has none, ``unsupported`` saying so);
- integer results a type cannot hold are unspecified in the OpenVINO reference (the texts are silent), and ONNX
  says nothing of overflow either: such elements are not compared on any column.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from onnx import numpy_helper

from conformance.backends.models.lowering import division, parametric
from conformance.backends.models.lowering.model import LoweredModel, NoLowering
from conformance.backends.models.lowering.nodes import (
    Build,
    Graph,
    Recipe,
    broadcast,
    broadcast_notes,
    lowering,
    node,
    output_name,
    pair_notes,
    same,
)
from conformance.dtypes import np_dtype
from conformance.model import CaseInstance


def squared_difference(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """(a - b)^2 as d = a - b, d * d: two roundings (at most 1.5 ulp; the op's bound is 2, as OpenVINO's own
    kernel). Integers as (max(a, b) - min(a, b))^2: |a - b| never wraps where the square fits the type (a wrapped
    Sub is not ONNX-defined), and where it does not fit the element is unspecified."""
    notes = broadcast_notes(case, attrs["auto_broadcast"])
    a, b = case.input_names
    y = output_name(case)
    if np_dtype(case.dtype).kind in "iu":
        nodes = [node("Max", [a, b], "hi"), node("Min", [a, b], "lo"), node("Sub", ["hi", "lo"], "d"),
                 node("Mul", ["d", "d"], y)]
        return Graph(nodes, notes=[*notes, "integers: |a - b| as max - min (no wrap)"])
    return Graph([node("Sub", [a, b], "d"), node("Mul", ["d", "d"], y)], notes=notes)


def clamp(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """min(max(x, min), max) = ONNX Clip(x, min, max) with the bounds as T tensors: for integers min ceiled and max
    floored (the text), saturated to T's range (where every x already is); for floats rounded to T, which is
    monotone and leaves every x of T where it was. OpenVINO rejects min > max; ONNX Clip gives max there."""
    low, high = attrs["min"], attrs["max"]
    if not low <= high:
        raise NoLowering(f"Clamp min={low} > max={high}: OpenVINO rejects an empty range, ONNX Clip gives max")
    dtype = np_dtype(case.dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        low, high = (min(max(math.ceil(low), info.min), info.max), min(max(math.floor(high), info.min), info.max))
    with np.errstate(over="ignore"):
        bounds = [numpy_helper.from_array(np.array(v, dtype=dtype), name) for v, name in
                  ((low, "clamp_min"), (high, "clamp_max"))]
    graph = [node("Clip", [case.input_names[0], "clamp_min", "clamp_max"], output_name(case))]
    return Graph(graph, bounds, [f"bounds {bounds[0].name}={low}, {bounds[1].name}={high} as {case.dtype}"])


def elu(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """x where x > 0, alpha (e^x - 1) where x <= 0 = ONNX Elu's (its branch is x < 0: at 0 both are 0)."""
    if not attrs["alpha"] >= 0:
        raise NoLowering(f"Elu alpha={attrs['alpha']}: OpenVINO's alpha is non-negative (it rejects the case), "
                         "ONNX Elu takes any")
    return same("Elu", lambda a: {"alpha": float(a["alpha"])})(case, attrs)


def _float64(*values: tuple[str, float]) -> list:
    """float64 constants of a formula graph (ONNX attributes and function-body constants are 32-bit floats)."""
    return [numpy_helper.from_array(np.array(v, dtype=np.float64), name) for name, v in values]


def hsigmoid(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """min(max(x + 3, 0), 6) / 6 = ONNX HardSigmoid(alpha=1/6, beta=1/2), max(0, min(1, x/6 + 1/2)). alpha is a
    32-bit attribute: 1/6 + 5e-9, |x|·5e-9 off, below a quarter of float32's ulp at the scale the op's bound
    measures (|x| / 6) and far below float16's and bfloat16's. For float64 that is 2^24 ulps: the text's formula
    itself, Add, Clip, Div, with float64 constants."""
    x, y = case.input_names[0], output_name(case)
    if case.dtype != "float64":
        return Graph([node("HardSigmoid", [x], y, alpha=1 / 6, beta=0.5)])
    nodes = [node("Add", [x, "three"], "shifted"), node("Clip", ["shifted", "zero", "six"], "clipped"),
             node("Div", ["clipped", "six"], y)]
    return Graph(nodes, _float64(("three", 3.0), ("zero", 0.0), ("six", 6.0)),
                 ["float64: the text's formula (HardSigmoid's alpha is a 32-bit float)"])


def hswish(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """x * min(max(x + 3, 0), 6) / 6 = ONNX HardSwish, x * max(0, min(1, x/6 + 1/2)): its text's alpha is 1/6, but
    its function body is HardSigmoid with the 32-bit alpha 0.16666667 (hsigmoid above): float64 is the text's
    formula itself, Add, Clip, Mul, Div, with float64 constants."""
    x, y = case.input_names[0], output_name(case)
    if case.dtype != "float64":
        return Graph([node("HardSwish", [x], y)])
    nodes = [node("Add", [x, "three"], "shifted"), node("Clip", ["shifted", "zero", "six"], "clipped"),
             node("Mul", [x, "clipped"], "scaled"), node("Div", ["scaled", "six"], y)]
    return Graph(nodes, _float64(("three", 3.0), ("zero", 0.0), ("six", 6.0)),
                 ["float64: the text's formula (HardSwish's function body has a 32-bit alpha)"])


def gelu(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """erf: 0.5 x (1 + erf(x / sqrt 2)) = ONNX Gelu-20 approximate "none"; tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x +
    0.044715 x^3))) = approximate "tanh", the same text. Gelu-20's function body holds 2/pi and 0.044715 as 32-bit
    constants cast to T (5e-9 off in float64): float64 tanh is the text's formula itself with float64 constants.
    Gelu-2 (no attribute) lowers to its definition, the erf form: one of its two readings (ops/_one_reading.py)."""
    x, y = case.input_names[0], output_name(case)
    mode = attrs.get("approximation_mode", "erf")
    if mode == "erf" or case.dtype != "float64":
        return Graph([node("Gelu", [x], y, approximate={"erf": "none", "tanh": "tanh"}[mode])])
    nodes = [node("Mul", [x, x], "x2"), node("Mul", ["x2", x], "x3"), node("Mul", ["x3", "k"], "kx3"),
             node("Add", [x, "kx3"], "inner"), node("Mul", ["inner", "c"], "scaled"), node("Tanh", ["scaled"], "t"),
             node("Add", ["t", "one"], "phi2"), node("Mul", [x, "half"], "half_x"), node("Mul", ["half_x", "phi2"], y)]
    constants = _float64(("k", 0.044715), ("c", math.sqrt(2 / math.pi)), ("one", 1.0), ("half", 0.5))
    return Graph(nodes, constants, ["float64: the text's formula (Gelu-20's function body has 32-bit constants)"])


def softmax(op: str, negative_since: int) -> Build:
    """e^x_c / sum e^x_d along ``axis``: ONNX Softmax/LogSoftmax-13's (before 13 they coerce the input to 2-D at
    axis, another function); both reject an axis past the rank. Negative axes count from the back from
    ``negative_since`` on (SoftMax-8, LogSoftmax-5); SoftMax-1's is 0 .. rank - 1 only: a negative one OpenVINO
    rejects, ONNX would count from the back."""

    def build(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
        if case.version < negative_since and attrs["axis"] < 0:
            raise NoLowering(f"{case.op}-{case.version} axis {attrs['axis']}: OpenVINO's is non-negative (it rejects "
                             "the case), ONNX counts it from the back")
        return same(op, lambda a: {"axis": int(a["axis"])})(case, attrs)

    return build


def matmul(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """The text's alignment is numpy.matmul's, ONNX MatMul's: a 1-D first input a row, a 1-D second a column, the
    temporary axes removed, batch axes broadcast. transpose_a/b swap the two last axes of a tensor of rank >= 2
    (a Transpose node), "ignored for 1D tensors"; a 0-d input both reject."""
    names, nodes, notes = [], [], []
    for name, shape, flag in zip(case.input_names, case.input_shapes, ("transpose_a", "transpose_b")):
        if attrs[flag] and len(shape) >= 2:
            perm = [*range(len(shape) - 2), len(shape) - 1, len(shape) - 2]
            nodes.append(node("Transpose", [name], f"{name}_t", perm=perm))
            name = f"{name}_t"
        elif attrs[flag]:
            notes.append(f"{flag} ignored for the {len(shape)}-D {name}")
        names.append(name)
    return Graph([*nodes, node("MatMul", names, output_name(case))], notes=notes)


def not_equal(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """a != b as Not(Equal(a, b)): IEEE's != is the negation of == (a NaN is unequal to everything, itself too)."""
    graph = broadcast("Equal")(case, attrs)
    equal = graph.nodes[0]
    equal.output[0] = "equal"
    return Graph([equal, node("Not", ["equal"], output_name(case))], notes=graph.notes,
                 typed=[("Equal", 0, case.dtype), ("Not", 0, "bool")])


def is_inf(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """True at +inf (detect_positive) and -inf (detect_negative) = ONNX IsInf, its flags 0/1 ints."""
    flags = {name: int(attrs[name]) for name in ("detect_negative", "detect_positive")}
    return Graph([node("IsInf", case.input_names, output_name(case), **flags)])


def is_finite(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """False at NaN and ±inf, True elsewhere = Not(Or(IsInf(x), IsNaN(x))) (ONNX has no IsFinite)."""
    x = case.input_names[0]
    nodes = [node("IsInf", [x], "inf"), node("IsNaN", [x], "nan"), node("Or", ["inf", "nan"], "not_finite"),
             node("Not", ["not_finite"], output_name(case))]
    return Graph(nodes, typed=[("IsInf", 0, case.dtype), ("IsNaN", 0, case.dtype), ("Or", 0, "bool"),
                               ("Not", 0, "bool")])


def select(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """then where cond, else elsewhere = ONNX Where(cond, then, else), which broadcasts all three numpy-wise. The
    text broadcasts then and else by auto_broadcast, then cond one-way onto their shape: the same elements where
    cond does not enlarge that shape (OpenVINO rejects a cond that would, ONNX broadcasts it: refused)."""
    cond, then, other = case.input_shapes
    mode = attrs["auto_broadcast"]
    notes = pair_notes(then, other, mode)
    try:
        values = tuple(np.broadcast_shapes(then, other))
    except ValueError:  # both texts reject values that do not broadcast: the runtime must
        return Graph([node("Where", case.input_names, output_name(case))], typed=[("Where", 1, case.dtype)])
    if mode == "none" and cond != values:
        raise NoLowering(f"auto_broadcast none with cond {list(cond)} and values {list(values)}: OpenVINO rejects "
                         "unequal shapes, ONNX Where broadcasts them")
    notes += pair_notes(values, cond, "pdpd") if mode == "pdpd" else []
    try:
        whole = tuple(np.broadcast_shapes(cond, values))
    except ValueError:
        whole = values  # both reject a cond that does not broadcast
    if whole != values:
        raise NoLowering(f"cond {list(cond)} would enlarge the values' shape {list(values)} to {list(whole)}: "
                         "OpenVINO broadcasts cond one way and rejects it, ONNX Where broadcasts it")
    return Graph([node("Where", case.input_names, output_name(case))], notes=notes, typed=[("Where", 1, case.dtype)])


def bitwise(op: str, logical: str) -> Build:
    """``op`` bit by bit on integers (ONNX Bitwise*, opset 18); booleans, which ONNX's bitwise ops do not take, by
    the logical op ``logical`` (OpenVINO's text: on booleans the logical op)."""

    def build(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
        chosen = logical if case.dtype == "bool" else op
        return (broadcast(chosen) if len(case.inputs) == 2 else same(chosen))(case, attrs)

    return build


def shift(direction: str) -> Build:
    """a << b, a >> b = ONNX BitShift: unsigned from 11, signed from 28 (arithmetic right shift, as OpenVINO's
    reference reads it); what OpenVINO leaves undefined (a count outside [0, bits), a signed left shift that does
    not fit) is not compared."""

    def build(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
        notes = broadcast_notes(case, attrs["auto_broadcast"])
        return Graph([node("BitShift", case.input_names, output_name(case), direction=direction)], notes=notes)

    return build


#: OpenVINO op -> its ONNX lowering. The equivalence of each: the ONNX op's text computes the OpenVINO formula on
#: every input of the types both have (the line's comment says what else it takes).
TABLE: dict[str, Recipe] = {
    # max(0, x) both; ONNX Relu has signed integers from 14 and no unsigned type (refused)
    "ReLU": Recipe("Relu", same("Relu")),
    "Clamp": Recipe("Clip", clamp, since=11),  # min/max are Clip inputs from 11, integers from 12
    "Elu": Recipe("Elu", elu),
    "Exp": Recipe("Exp", same("Exp")),
    "Sigmoid": Recipe("Sigmoid", same("Sigmoid")),  # 1 / (1 + e^-x) both
    "HSwish": Recipe("HardSwish", hswish, since=14),
    "HSigmoid": Recipe("HardSigmoid", hsigmoid),
    "Mish": Recipe("Mish", same("Mish"), since=18),  # x * tanh(ln(1 + e^x)) both
    "SoftSign": Recipe("Softsign", same("Softsign")),  # x / (1 + |x|) both
    "SoftPlus": Recipe("Softplus", same("Softplus")),  # ln(e^x + 1) both
    "Gelu": Recipe("Gelu", gelu, since=20),
    "SoftMax": Recipe("Softmax", softmax("Softmax", negative_since=8), since=13),
    "LogSoftmax": Recipe("LogSoftmax", softmax("LogSoftmax", negative_since=5), since=13),
    "Abs": Recipe("Abs", same("Abs")),
    "Ceiling": Recipe("Ceil", same("Ceil")),  # floats only in ONNX (OpenVINO's integers: refused)
    "Floor": Recipe("Floor", same("Floor")),
    "Negative": Recipe("Neg", same("Neg")),  # signed types both
    "Sign": Recipe("Sign", same("Sign")),  # -1, 0, 1 both
    "Sin": Recipe("Sin", same("Sin")),
    "Cos": Recipe("Cos", same("Cos")),
    "Tan": Recipe("Tan", same("Tan")),
    "Sinh": Recipe("Sinh", same("Sinh")),
    "Cosh": Recipe("Cosh", same("Cosh")),
    "Tanh": Recipe("Tanh", same("Tanh")),  # floats only in ONNX (OpenVINO's integers round half up: refused)
    "Asin": Recipe("Asin", same("Asin")),
    "Acos": Recipe("Acos", same("Acos")),
    "Atan": Recipe("Atan", same("Atan")),
    # integers: Erf-9..12 takes them (13 dropped them); OpenVINO states no rounding, only erf(0) = 0 is compared
    "Erf": Recipe("Erf", same("Erf")),
    "Log": Recipe("Log", same("Log")),
    "Sqrt": Recipe("Sqrt", same("Sqrt")),  # floats only in ONNX (OpenVINO's integers round half up: refused)
    "Acosh": Recipe("Acosh", same("Acosh")),
    "Asinh": Recipe("Asinh", same("Asinh")),
    # a + b, a - b, a * b, max, min after numpy broadcasting (ONNX's multidirectional, from Add-7 / Max-8)
    "Add": Recipe("Add", broadcast("Add"), since=7),
    "Subtract": Recipe("Sub", broadcast("Sub"), since=7),
    "Multiply": Recipe("Mul", broadcast("Mul"), since=7),
    "Maximum": Recipe("Max", broadcast("Max"), since=8),
    "Minimum": Recipe("Min", broadcast("Min"), since=8),
    "SquaredDifference": Recipe("Sub+Mul", squared_difference, since=8),
    "MatMul": Recipe("MatMul", matmul, since=9),  # Transpose nodes for transpose_a/b
    # comparisons, in the type itself, IEEE's for NaN and -0 both; ONNX's have no boolean but Equal (refused)
    "Equal": Recipe("Equal", broadcast("Equal"), since=7),
    "NotEqual": Recipe("Equal+Not", not_equal, since=7),
    "Greater": Recipe("Greater", broadcast("Greater"), since=7),
    "GreaterEqual": Recipe("GreaterOrEqual", broadcast("GreaterOrEqual"), since=12),
    "Less": Recipe("Less", broadcast("Less"), since=7),
    "LessEqual": Recipe("LessOrEqual", broadcast("LessOrEqual"), since=12),
    "LogicalAnd": Recipe("And", broadcast("And"), since=7),  # booleans only, both
    "LogicalOr": Recipe("Or", broadcast("Or"), since=7),
    "LogicalXor": Recipe("Xor", broadcast("Xor"), since=7),
    "LogicalNot": Recipe("Not", same("Not")),
    "IsNaN": Recipe("IsNaN", same("IsNaN")),
    "IsInf": Recipe("IsInf", is_inf, since=10),
    "IsFinite": Recipe("IsInf+IsNaN+Or+Not", is_finite, since=10),
    "Select": Recipe("Where", select, since=9),
    # division and remainders: integer semantics built from ONNX's stated ones (Div truncates from 14, Mod fmod=0
    # is Python's %, fmod=1 C's fmod on floats only)
    "Divide": Recipe("Div", division.divide, since=14),
    "FloorMod": Recipe("Mod", division.floor_mod, since=13),
    "Mod": Recipe("Mod", division.mod, since=13),
    "Power": Recipe("Pow", division.power, since=12),
    "Round": Recipe("Round", division.round_, since=11),
    "BitwiseAnd": Recipe("BitwiseAnd", bitwise("BitwiseAnd", "And"), since=7),
    "BitwiseOr": Recipe("BitwiseOr", bitwise("BitwiseOr", "Or"), since=7),
    "BitwiseXor": Recipe("BitwiseXor", bitwise("BitwiseXor", "Xor"), since=7),
    "BitwiseNot": Recipe("BitwiseNot", bitwise("BitwiseNot", "Not"), since=1),
    "BitwiseLeftShift": Recipe("BitShift", shift("LEFT"), since=11),
    "BitwiseRightShift": Recipe("BitShift", shift("RIGHT"), since=11),
    # activations with input parameters (parametric.py)
    "HardSigmoid": Recipe("HardSigmoid", parametric.hard_sigmoid, since=6),
    "Selu": Recipe("Selu", parametric.selu, since=6),
    "Swish": Recipe("Sigmoid+Mul", parametric.swish, since=13),
    "PReLU": Recipe("PRelu", parametric.prelu, since=9),
}

_LOWER = {op: lowering(recipe) for op, recipe in TABLE.items()}


def lower(case: CaseInstance) -> LoweredModel:
    """The lowering of an openvino-domain case whose op is in ``TABLE``."""
    return _LOWER[case.op](case)
