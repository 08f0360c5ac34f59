"""elementwise.py's table: each OpenVINO element-wise op's lowered model, evaluated by onnx's own evaluator
(onnx.reference, no runtime column), earns a pass against our OpenVINO reference under the op's error model, in
every type it lowers; a wrong equivalence (a constant, a mode, an axis, a rounding) fails the same check; and every
refusal names a real difference."""

from __future__ import annotations

import numpy as np
import pytest
from lowering_check import FLOATS, SIGNED, UNSIGNED, instance, uniform, verdict
from onnx.reference import ReferenceEvaluator

import conformance_reference as reference
from conformance.backends.models.lowering import LOWERINGS, lower
from conformance.backends.models.lowering.elementwise import TABLE, clamp, squared_difference
from conformance.backends.models.lowering.nodes import Graph, Recipe, lowering, node, output_name, same
from conformance.model import CaseInstance

#: (op, version, attributes, input range, types): one tensor of [3, 4, 5] drawn in the op's domain
UNARY = [
    ("ReLU", 1, {}, (-4, 4), FLOATS + SIGNED),
    ("Clamp", 1, {"min": -1.5, "max": 2.25}, (-4, 5), FLOATS + SIGNED),
    ("Clamp", 1, {"min": 0.2, "max": 0.7}, (-3, 3), ["int32"]),  # ceil 1 > floor 0: Clip gives max, as OpenVINO
    ("Clamp", 1, {"min": -300.0, "max": 70000.0}, (-128, 127), ["int8", "float16"]),  # bounds past the type
    ("Elu", 1, {"alpha": 0.5}, (-4, 4), FLOATS),
    ("Exp", 1, {}, (-4, 4), FLOATS),
    ("Sigmoid", 1, {}, (-6, 6), FLOATS),
    ("HSwish", 4, {}, (-5, 5), FLOATS),
    ("HSigmoid", 5, {}, (-5, 5), FLOATS),
    ("Mish", 4, {}, (-5, 5), FLOATS),
    ("SoftSign", 9, {}, (-5, 5), FLOATS),
    ("SoftPlus", 4, {}, (-5, 5), FLOATS),
    ("Gelu", 7, {"approximation_mode": "erf"}, (-4, 4), FLOATS),
    ("Gelu", 7, {"approximation_mode": "tanh"}, (-4, 4), FLOATS),
    ("SoftMax", 1, {"axis": 0}, (-3, 3), FLOATS),
    ("SoftMax", 8, {"axis": -1}, (-3, 3), FLOATS),
    ("LogSoftmax", 5, {"axis": -2}, (-3, 3), FLOATS),
    ("Abs", 1, {}, (-9, 9), FLOATS + SIGNED + UNSIGNED[:1]),
    ("Ceiling", 1, {}, (-9, 9), FLOATS),
    ("Floor", 1, {}, (-9, 9), FLOATS),
    ("Negative", 1, {}, (-9, 9), FLOATS + SIGNED),
    ("Sign", 1, {}, (-3, 3), FLOATS + SIGNED + UNSIGNED[:1]),
    ("Sin", 1, {}, (-4, 4), FLOATS),
    ("Cos", 1, {}, (-4, 4), FLOATS),
    ("Tan", 1, {}, (-1.5, 1.5), FLOATS),
    ("Sinh", 1, {}, (-4, 4), FLOATS),
    ("Cosh", 1, {}, (-4, 4), FLOATS),
    ("Tanh", 1, {}, (-4, 4), FLOATS),
    ("Asin", 1, {}, (-1, 1), FLOATS),
    ("Acos", 1, {}, (-1, 1), FLOATS),
    ("Atan", 1, {}, (-9, 9), FLOATS),
    ("Erf", 1, {}, (-3, 3), FLOATS + ["int32"]),
    ("Log", 1, {}, (0.01, 50), FLOATS),
    ("Sqrt", 1, {}, (0, 50), FLOATS),
    ("Acosh", 3, {}, (1, 50), FLOATS),
    ("Asinh", 3, {}, (-50, 50), FLOATS),
]


@pytest.mark.parametrize(("op", "version", "attributes", "bounds", "dtypes"), UNARY,
                         ids=[f"{u[0]}-{u[1]}-{i}" for i, u in enumerate(UNARY)])
def test_unary_lowerings_compute_the_openvino_reference(op, version, attributes, bounds, dtypes):
    low, high = bounds
    for dtype in dtypes:
        start = 0 if dtype.startswith("u") else low  # unsigned draws from 0
        case = instance(op, version, attributes, {"x": uniform([3, 4, 5], start, high)}, dtype)
        assert verdict(case, lower(case)) == "", dtype


#: (auto_broadcast, shape of a, shape of b): the modes where they give numpy's elements
SHAPES = [("numpy", [2, 1, 3], [4, 1]), ("none", [2, 3], [2, 3]), ("pdpd", [2, 3, 4, 5], [4, 1]),
          ("pdpd", [2, 3, 4, 5], [3, 4, 5]), ("numpy", [], [3])]


@pytest.mark.parametrize("op", ["Add", "Subtract", "Multiply", "Maximum", "Minimum", "SquaredDifference"])
def test_binary_lowerings_compute_the_openvino_reference(op):
    for mode, a, b in SHAPES:
        for dtype in FLOATS + SIGNED + UNSIGNED:
            low = 0 if dtype.startswith("u") else -20
            inputs = {"a": uniform(a, low, 20, seed=3), "b": uniform(b, low, 20, seed=4)}
            case = instance(op, 1, {"auto_broadcast": mode}, inputs, dtype)
            assert verdict(case, lower(case)) == "", (mode, dtype)


def test_squared_difference_of_unsigned_integers_below_each_other():
    """(1 - 2)^2 = 1 in uint8: max - min never wraps (a wrapped Sub is not what ONNX defines)."""
    case = instance("SquaredDifference", 1, {}, {"a": {"shape": [4], "data": [1, 2, 0, 15]},
                                                 "b": {"shape": [4], "data": [2, 1, 15, 0]}}, "uint8")
    result = lower(case)
    assert [n.op_type for n in result.model.graph.node] == ["Max", "Min", "Sub", "Mul"]
    assert verdict(case, result) == ""


@pytest.mark.parametrize("op", ["Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual"])
def test_comparison_lowerings_compute_the_openvino_reference(op):
    """Ties and NaN included: integer draws from a small range tie often, the special values are IEEE's cases."""
    for mode, a, b in SHAPES:
        for dtype in FLOATS + SIGNED + UNSIGNED + ["bool"]:
            if dtype == "bool" and op not in ("Equal", "NotEqual"):
                continue  # ONNX's ordering comparisons have no boolean (refused, test below)
            low = 0 if dtype.startswith("u") else -3
            inputs = {"a": uniform(a, low, 3, seed=3), "b": uniform(b, low, 3, seed=4)}
            case = instance(op, 1, {"auto_broadcast": mode}, inputs, dtype)
            assert verdict(case, lower(case)) == "", (mode, dtype)
    special = [0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1.0]
    pair = {"a": {"shape": [6], "data": special}, "b": {"shape": [6], "data": [-0.0, 0.0, float("nan"), 1.0,
                                                                              -float("inf"), float("nan")]}}
    case = instance(op, 1, {}, pair, "float32")
    assert verdict(case, lower(case)) == ""


@pytest.mark.parametrize("op", ["LogicalAnd", "LogicalOr", "LogicalXor"])
def test_logical_lowerings_compute_the_openvino_reference(op):
    for mode, a, b in SHAPES:
        case = instance(op, 1, {"auto_broadcast": mode}, {"a": uniform(a, -1, 1, 3), "b": uniform(b, -1, 1, 4)},
                        "bool")
        assert verdict(case, lower(case)) == "", mode


def test_predicates_and_select_compute_the_openvino_reference():
    values = {"shape": [7], "data": [0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1.5, -2.0]}
    for dtype in FLOATS:
        for op, attributes in [("IsNaN", {}), ("IsFinite", {}), ("IsInf", {}),
                               ("IsInf", {"detect_negative": False}), ("IsInf", {"detect_positive": False})]:
            case = instance(op, 10, attributes, {"data": values}, dtype)
            assert verdict(case, lower(case)) == "", (op, attributes, dtype)
    not_ = instance("LogicalNot", 1, {}, {"a": uniform([3, 4], -1, 1)}, "bool")
    assert verdict(not_, lower(not_)) == ""
    shapes = [("numpy", [3], [2, 1], [1, 3]), ("numpy", [], [2, 3], [2, 3]), ("pdpd", [3, 1], [2, 3, 4], [2, 3, 4]),
              ("pdpd", [2, 3], [2, 3], [3]), ("none", [2, 3], [2, 3], [2, 3])]
    for mode, cond, then, other in shapes:
        for dtype in FLOATS + ["int8", "uint64"]:
            low = 0 if dtype.startswith("u") else -5
            inputs = {"cond": {**uniform(cond, -1, 1, 2), "dtype": "bool"}, "then": uniform(then, low, 5, 3),
                      "else": uniform(other, low, 5, 4)}
            case = instance("Select", 1, {"auto_broadcast": mode}, inputs, dtype)
            assert verdict(case, lower(case)) == "", (mode, dtype)


def test_division_remainders_power_and_round_compute_the_openvino_reference():
    """Every sign pair of dividend and divisor, floor and truncated integer division, both remainders, both Round
    modes with halves and values just below them."""
    a = {"shape": [8], "data": [7, -7, 7, -7, 0, 9, -9, 6]}
    b = {"shape": [8], "data": [2, 2, -2, -2, 3, 4, 4, -3]}
    for op, attributes in [("Divide", {"m_pythondiv": True}), ("Divide", {"m_pythondiv": False}), ("FloorMod", {}),
                           ("Mod", {})]:
        for dtype in FLOATS + SIGNED + ["uint8"]:
            pair = {"a": {**a, "data": [abs(v) for v in a["data"]]}, "b": {**b, "data": [abs(v) for v in b["data"]]}
                    } if dtype.startswith("u") else {"a": a, "b": b}
            case = instance(op, 1, attributes, pair, dtype)
            assert verdict(case, lower(case)) == "", (op, attributes, dtype)
        halves = {"a": {"shape": [4], "data": [5.5, -5.5, 0.75, -0.0]}, "b": {"shape": [4], "data": [2, -2, 0.25, 3]}}
        case = instance(op, 1, attributes, halves, "float32")
        assert verdict(case, lower(case)) == "", (op, "halves")
    for dtype in FLOATS + ["int32", "int64"]:
        pair = {"a": {"shape": [4], "data": [2, -3, 0, 5]}, "b": {"shape": [4], "data": [3, 3, 2, 0]}}
        case = instance("Power", 1, {}, pair, dtype)
        assert verdict(case, lower(case)) == "", dtype
    x = {"shape": [9], "data": [-4.5, -1.5, -0.5, 0.5, 2.5, 0.4999999701976776, -0.3, -0.0, 8388607.5]}
    for mode in ("half_to_even", "half_away_from_zero"):
        for dtype in FLOATS:
            case = instance("Round", 5, {"mode": mode}, {"x": x}, dtype)
            assert verdict(case, lower(case)) == "", (mode, dtype)


MATMUL = [({}, [2, 3], [3, 4]), ({"transpose_a": True}, [3, 2], [3, 4]), ({"transpose_b": True}, [2, 3], [4, 3]),
          ({"transpose_a": True, "transpose_b": True}, [2, 3, 2], [4, 3]), ({}, [3], [3, 4]), ({}, [2, 3], [3]),
          ({"transpose_a": True, "transpose_b": True}, [5], [5]), ({}, [2, 1, 2, 3], [3, 3, 2])]


def test_matmul_lowering_computes_the_openvino_reference():
    for attributes, a, b in MATMUL:
        for dtype in FLOATS + ["int32", "int64", "uint32", "uint64"]:
            low = 0 if dtype.startswith("u") else -4
            case = instance("MatMul", 1, attributes, {"a": uniform(a, low, 4, 5), "b": uniform(b, low, 4, 6)}, dtype)
            assert verdict(case, lower(case)) == "", (attributes, a, b, dtype)


def _wrong_clamp(case: CaseInstance, attrs: dict) -> Graph:
    """Clamp with the integer bounds truncated instead of min ceiled and max floored."""
    return clamp(case, {"min": float(int(attrs["min"])) - 1, "max": attrs["max"]})


def _sub_only(case: CaseInstance, attrs: dict) -> Graph:
    return Graph([node("Sub", case.input_names, output_name(case))])


def _untransposed(case: CaseInstance, attrs: dict) -> Graph:
    return Graph([node("MatMul", case.input_names, output_name(case))])


#: a wrong line of the table each, and a case it must fail on
WRONG = [
    (Recipe("HardSigmoid", same("HardSigmoid", lambda a: {"alpha": 1 / 3, "beta": 0.5})), "HSigmoid", 5, {}),
    (Recipe("Gelu", same("Gelu", lambda a: {"approximate": "tanh"}), since=20), "Gelu", 7, {}),
    (Recipe("Elu", same("Elu", lambda a: {"alpha": 2 * a["alpha"]})), "Elu", 1, {"alpha": 0.5}),
    (Recipe("Softmax", same("Softmax", lambda a: {"axis": a["axis"] + 1}), since=13), "SoftMax", 1, {"axis": 0}),
    (Recipe("Sigmoid", same("Sigmoid")), "Exp", 1, {}),
    (Recipe("Softplus", same("Softplus")), "Mish", 4, {}),
    (Recipe("HardSigmoid", same("HardSigmoid")), "HSigmoid", 5, {}),  # ONNX's defaults 0.2, 0.5
]


@pytest.mark.parametrize(("recipe", "op", "version", "attributes"), WRONG, ids=[w[1] for w in WRONG])
def test_a_wrong_equivalence_fails_the_check(recipe, op, version, attributes):
    case = instance(op, version, attributes, {"x": uniform([3, 4, 5], -4, 4)}, "float32")
    assert verdict(case, lowering(recipe)(case)) != ""


def test_wrong_integer_and_graph_equivalences_fail_the_check():
    clamped = instance("Clamp", 1, {"min": -1.5, "max": 2.25}, {"x": uniform([40], -5, 5)}, "int32")
    assert verdict(clamped, lowering(Recipe("Clip", _wrong_clamp, since=11))(clamped)) != ""
    pair = {"a": uniform([3, 4], -4, 4, 1), "b": uniform([3, 4], -4, 4, 2)}
    squared = instance("SquaredDifference", 1, {}, pair, "float32")
    assert verdict(squared, lowering(Recipe("Sub", _sub_only))(squared)) != ""
    assert verdict(squared, lowering(Recipe("Sub+Mul", squared_difference))(squared)) == ""
    transposed = instance("MatMul", 1, {"transpose_a": True}, {"a": uniform([3, 3], -4, 4, 1),
                                                               "b": uniform([3, 3], -4, 4, 2)}, "float32")
    assert verdict(transposed, lowering(Recipe("MatMul", _untransposed))(transposed)) != ""
    unequal = instance("NotEqual", 1, {}, {"a": uniform([20], -2, 2, 1), "b": uniform([20], -2, 2, 2)}, "int32")
    assert verdict(unequal, lowering(Recipe("Equal", same("Equal"), since=7))(unequal)) != ""
    infinities = instance("IsInf", 10, {"detect_negative": False}, {"data": {"shape": [2], "data": [
        float("inf"), -float("inf")]}}, "float32")
    swapped = same("IsInf", lambda a: {"detect_negative": int(a["detect_positive"]),
                                        "detect_positive": int(a["detect_negative"])})
    assert verdict(infinities, lowering(Recipe("IsInf", swapped, since=10))(infinities)) != ""
    signs = {"a": {"shape": [4], "data": [7, -7, 7, -7]}, "b": {"shape": [4], "data": [2, 2, -2, -2]}}
    floored = instance("Divide", 1, {"m_pythondiv": True}, signs, "int32")
    assert verdict(floored, lowering(Recipe("Div", same("Div"), since=14))(floored)) != ""  # truncated
    python_mod = instance("FloorMod", 1, {}, signs, "float32")
    assert verdict(python_mod, lowering(Recipe("Mod", same("Mod", lambda a: {"fmod": 1}), since=13))(python_mod)) != ""
    c_mod = instance("Mod", 1, {}, signs, "int32")
    assert verdict(c_mod, lowering(Recipe("Mod", same("Mod"), since=13))(c_mod)) != ""  # Python's sign


#: (op, version, attributes, inputs, dtype, what the reason names); OpenVINO rejects all but the type refusals
REFUSED = [
    ("Add", 1, {"auto_broadcast": "none"}, {"a": [2, 3], "b": [3]}, "float32", "auto_broadcast none"),
    ("Maximum", 1, {"auto_broadcast": "pdpd"}, {"a": [3, 4], "b": [2, 3, 4]}, "float32", "pdpd rejects"),
    ("Multiply", 1, {"auto_broadcast": "pdpd"}, {"a": [8, 1, 6, 1], "b": [7, 1, 5]}, "float32", "pdpd rejects"),
    ("SoftMax", 1, {"axis": -1}, {"x": [2, 3]}, "float32", "non-negative"),
    ("Elu", 1, {"alpha": -1.0}, {"x": [2, 3]}, "float32", "non-negative"),
    ("Clamp", 1, {"min": 2.0, "max": 1.0}, {"x": [2, 3]}, "float32", "empty range"),
    ("ReLU", 1, {}, {"x": [4]}, "uint8", "ONNX Relu has no uint8"),
    ("Ceiling", 1, {}, {"x": [4]}, "int32", "ONNX Ceil has no int32"),
    ("MatMul", 1, {}, {"a": [2, 3], "b": [3, 2]}, "int8", "ONNX MatMul has no int8"),
    ("Abs", 1, {"bogus": 1}, {"x": [4]}, "float32", "defines no attribute"),
    ("Negative", 1, {}, {"x": [4]}, "uint8", "takes no uint8"),
    ("Greater", 1, {}, {"a": [4], "b": [4]}, "bool", "ONNX Greater has no bool"),
    ("Select", 1, {}, {"cond": [2, 1, 4], "then": [3, 4], "else": [3, 4]}, "float32", "would enlarge"),
    ("Select", 1, {"auto_broadcast": "none"}, {"cond": [3], "then": [2, 3], "else": [2, 3]}, "float32",
     "auto_broadcast none"),
]


@pytest.mark.parametrize(("op", "version", "attributes", "shapes", "dtype", "why"), REFUSED,
                         ids=[f"{r[0]}-{r[-1]}" for r in REFUSED])
def test_refusals_name_the_difference(op, version, attributes, shapes, dtype, why):
    rejected = "ONNX" not in why
    inputs = {k: {**uniform(s, 0, 3), **({"dtype": "bool"} if k == "cond" else {})} for k, s in shapes.items()}
    case = instance(op, version, attributes, inputs, dtype, rejected)
    result = lower(case)
    assert isinstance(result, str) and why in result, result


def test_the_refusals_are_real_differences():
    """What ONNX's op does with the refused cases that OpenVINO rejects: it computes a value."""
    x = np.array([[1.0, 2.0, 3.0]], dtype=np.float32)
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "SoftMax", 1, [x], {"axis": -1})
    onnx_softmax = ReferenceEvaluator(_one_node("Softmax", axis=-1)).run(None, {"x": x})[0]
    assert np.isfinite(onnx_softmax).all()
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", "Add", 1, [np.ones((8, 1, 6, 1), np.float32), np.ones((7, 1, 5), np.float32)],
                           {"auto_broadcast": "pdpd"})
    assert np.broadcast_shapes((8, 1, 6, 1), (7, 1, 5)) == (8, 7, 6, 5)  # ONNX Add's multidirectional rule


def _one_node(op: str, **attributes):
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node(op, ["x"], ["y"], **attributes)], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_every_modelled_elementwise_op_is_in_the_table_and_the_opset_fits_the_type():
    assert {op for (domain, op) in LOWERINGS if domain == "openvino"} >= set(TABLE)
    erf = lower(instance("Erf", 1, {}, {"x": uniform([4], -2, 2)}, "int32"))
    assert erf.model.opset_import[0].version == 12  # Erf's integers end at 13
    relu = lower(instance("ReLU", 1, {}, {"x": uniform([4], -2, 2)}, "int8"))
    assert relu.model.opset_import[0].version == 14  # Relu's integers start at 14
    sin = lower(instance("Sin", 1, {}, {"x": uniform([4], -2, 2)}, "bfloat16"))
    assert sin.model.opset_import[0].version == 22
