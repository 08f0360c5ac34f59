"""Exact ONNX lowerings of OpenVINO Divide, FloorMod, Mod, Power and Round (lines of elementwise.py's table).

ONNX states integer division and remainders narrowly: Div truncates (Div-14's text), Mod fmod=0 is Python's %
(integers only), fmod=1 C's fmod (floating point only). OpenVINO's floor division, its C remainder of integers and
its Python remainder of floats are built from those with comparisons and a Where, each step exact where the result
fits the type; Round's half_away_from_zero, which ONNX lacks, from Floor on |x|. Division by zero, and a remainder
of an infinite or NaN operand, OpenVINO leaves undefined: not compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from onnx import numpy_helper

from conformance.backends.models.lowering.nodes import Graph, broadcast_notes, node, output_name
from conformance.backends.models.single_node import ONNX_TYPES
from conformance.dtypes import np_dtype
from conformance.model import CaseInstance


def _typed_constant(case: CaseInstance, name: str, value: float) -> Any:
    return numpy_helper.from_array(np.array(value, dtype=np_dtype(case.dtype)), name)


def _signs_differ(x: str, y: str, r: str, out: str) -> list:
    """Nodes making ``out``: r != 0 and x, y of opposite signs (x < 0 xor y < 0), from a constant ``zero``."""
    return [node("Equal", [r, "zero"], f"{out}_r0"), node("Not", [f"{out}_r0"], f"{out}_rnz"),
            node("Less", [x, "zero"], f"{out}_xneg"), node("Less", [y, "zero"], f"{out}_yneg"),
            node("Xor", [f"{out}_xneg", f"{out}_yneg"], f"{out}_opposite"),
            node("And", [f"{out}_rnz", f"{out}_opposite"], out)]


def _comparison_types(case: CaseInstance, *ops: str) -> list[tuple[str, int, str]]:
    return [*((op, 0, case.dtype) for op in ops), ("Equal", 0, case.dtype), ("Less", 0, case.dtype),
            ("Not", 0, "bool"), ("Xor", 0, "bool"), ("And", 0, "bool"), ("Where", 1, case.dtype)]


def divide(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """a / b = ONNX Div: floats IEEE's quotient (m_pythondiv is "supported only for integer data types"); integers
    truncated, Div-14's text, OpenVINO's m_pythondiv false. m_pythondiv true on signed integers floors: the
    truncated quotient less 1 where the remainder is nonzero and a, b have opposite signs (no step can overflow
    where the quotient fits). Division by zero is undefined in OpenVINO's text: not compared."""
    notes = broadcast_notes(case, attrs["auto_broadcast"])
    a, b = case.input_names
    y = output_name(case)
    if np_dtype(case.dtype).kind != "i" or not attrs["m_pythondiv"]:
        return Graph([node("Div", [a, b], y)], notes=notes)
    nodes = [node("Div", [a, b], "q"), node("Mod", [a, b], "r"), *_signs_differ(a, b, "r", "floor_it"),
             node("Sub", ["q", "one"], "q_minus_1"), node("Where", ["floor_it", "q_minus_1", "q"], y)]
    return Graph(nodes, [_typed_constant(case, "zero", 0), _typed_constant(case, "one", 1)],
                 [*notes, "m_pythondiv: truncated quotient, less 1 where the signs differ and r != 0"],
                 typed=[*_comparison_types(case, "Div", "Mod", "Sub")])


def floor_mod(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """x - floor(x / y) y, the divisor's sign: integers ONNX Mod fmod=0 ("the Python %-operator"); floats (Mod
    fmod=0 takes none) the exact C remainder Mod fmod=1, plus y where it is nonzero and its sign is not y's: the
    exact value, rounded once, as OpenVINO's."""
    notes = broadcast_notes(case, attrs["auto_broadcast"])
    a, b = case.input_names
    y = output_name(case)
    if np_dtype(case.dtype).kind in "iu":
        return Graph([node("Mod", [a, b], y)], notes=notes)
    nodes = [node("Mod", [a, b], "r", fmod=1), *_signs_differ("r", b, "r", "shift"), node("Add", ["r", b], "r_y"),
             node("Where", ["shift", "r_y", "r"], y)]
    return Graph(nodes, [_typed_constant(case, "zero", 0)], [*notes, "floats: fmod, plus y where signs differ"],
                 typed=_comparison_types(case, "Mod", "Add"))


def mod(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """x - trunc(x / y) y, the dividend's sign: floats ONNX Mod fmod=1 (C's fmod, exact); unsigned integers Mod
    fmod=0 (the two agree without negatives); signed ones (fmod=1 takes no integers) the Python remainder less y
    where it is nonzero and x, y have opposite signs (|r - y| < |y|: no overflow)."""
    notes = broadcast_notes(case, attrs["auto_broadcast"])
    a, b = case.input_names
    y = output_name(case)
    kind = np_dtype(case.dtype).kind
    if kind != "i":
        return Graph([node("Mod", [a, b], y, **({"fmod": 1} if kind != "u" else {}))], notes=notes)
    nodes = [node("Mod", [a, b], "r"), *_signs_differ(a, b, "r", "shift"), node("Sub", ["r", b], "r_y"),
             node("Where", ["shift", "r_y", "r"], y)]
    return Graph(nodes, [_typed_constant(case, "zero", 0)], [*notes, "signed: Python remainder, less y where signs "
                                                                     "differ"],
                 typed=_comparison_types(case, "Mod", "Sub"))


def power(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """a ^ b = ONNX Pow (x^exponent). The exponent is of type T here, which Pow's T1 must take too (bfloat16
    exponents only from Pow-15)."""
    return Graph([node("Pow", case.input_names, output_name(case))],
                 notes=broadcast_notes(case, attrs["auto_broadcast"]),
                 typed=[("Pow", 0, case.dtype), ("Pow", 1, case.dtype)])


def round_(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """half_to_even = ONNX Round (the nearest integer, halves to even; integral values, ±0, NaN, inf themselves).
    half_away_from_zero has no ONNX op: r = floor(|x|) + (|x| - floor(|x|) >= 1/2) (the fraction exact, no x + 1/2
    rounding), -r for x < 0, and x * 0 where r is 0 (its sign kept, as OpenVINO's -0 for a negative input)."""
    x, y = case.input_names[0], output_name(case)
    if attrs["mode"] == "half_to_even":
        return Graph([node("Round", [x], y)])
    nodes = [node("Abs", [x], "ax"), node("Floor", ["ax"], "fl"), node("Sub", ["ax", "fl"], "frac"),
             node("GreaterOrEqual", ["frac", "half"], "up"), node("Cast", ["up"], "up_t", to=_onnx_type(case)),
             node("Add", ["fl", "up_t"], "r"), node("Neg", ["r"], "neg_r"), node("Less", [x, "zero"], "negative"),
             node("Where", ["negative", "neg_r", "r"], "signed"), node("Equal", ["r", "zero"], "zero_r"),
             node("Mul", [x, "zero"], "signed_zero"), node("Where", ["zero_r", "signed_zero", "signed"], y)]
    constants = [_typed_constant(case, "half", 0.5), _typed_constant(case, "zero", 0)]
    typed = [(op, 0, case.dtype) for op in ("Abs", "Floor", "Sub", "GreaterOrEqual", "Add", "Neg", "Less", "Equal",
                                            "Mul")] + [("Where", 1, case.dtype), ("Cast", 0, "bool")]
    return Graph(nodes, constants, ["half_away_from_zero: floor(|x|) + (fraction >= 1/2), signed"], typed=typed)


def _onnx_type(case: CaseInstance) -> int:
    return ONNX_TYPES[case.dtype]
