"""ONNX LpNormalization, since versions 1 and 22 (22 adds bfloat16; the text is otherwise the same).

"Given a matrix, apply Lp-normalization along the provided axis. The output is computed as:
`output = input / Lp_norm(input, axis)`. When the Lp norm is zero (i.e., all elements along the axis are zero),
the output is defined to be zero to avoid division by zero." Attributes: ``axis`` (INT, default -1, "-1 mean last
axis") and ``p`` (INT, default 2, "only 1 or 2 are supported").

An op of no particular shape, every member of the op contract (reference/contract.py) written out: the template
to copy for an op that is not a window pool. The value is the mathematical one: the norm in wide precision
(``_pnorm``: float64, long double for float64 inputs, scaled so that neither |x|^p nor the sum overflows), the
quotient in the same precision, rounded once to the input dtype. NaN and inf follow the formula (docs/spec-notes.md,
"LpNormalization (ONNX)").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation, check_unknown_attributes, one_float_input
from ._pnorm import pnorm, round_to, work_dtype
from .schema import Attribute, Port, Schema, onnx_float_types

OP = "LpNormalization"
SCHEMA = Schema(
    "ai.onnx", OP, (1, 22),
    attributes=(Attribute("axis", "int", default=-1), Attribute("p", "int", default=2, values=(1, 2))),
    inputs=(Port("input"),), outputs=(Port("output"),),
    types=onnx_float_types(),
    # "Given a matrix": the text allows any rank >= 1 (the node tests use 2 and 3); coverage asks for no rank
)
VERSIONS = SCHEMA.versions


def _axis_and_p(since: int, shape: tuple[int, ...], attributes: dict[str, Any]) -> tuple[int, int]:
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), f"{OP}-{since}")
    p, axis = attributes.get("p", 2), attributes.get("axis", -1)
    for name, value in (("p", p), ("axis", axis)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise SpecViolation(f"{OP}-{since}: {name} is an INT attribute, got {value!r}")
    if p not in (1, 2):
        raise SpecViolation(f"{OP}-{since}: p={p} - \"only 1 or 2 are supported\"")
    rank = len(shape)
    if not -rank <= axis < rank:
        raise SpecViolation(f"{OP}-{since}: axis {axis} is outside a rank-{rank} input (axes -{rank}..{rank - 1})")
    return axis % rank, int(p)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _axis_and_p(since, input_shapes[0], attributes)
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K of the p-norm bound: the norm of each output element sums the |x|^p of its line along the axis."""
    shape = input_shapes[0]
    axis, _ = _axis_and_p(since, shape, attributes)
    return int(shape[axis])


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x = one_float_input(OP, since, inputs, SCHEMA.supported_dtypes(since))
    axis, p = _axis_and_p(since, x.shape, attributes)
    work = np.moveaxis(x.astype(work_dtype(x.dtype)), axis, -1)
    norm = pnorm(np.abs(work), float(p))[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        # "When the Lp norm is zero ... the output is defined to be zero"; a NaN norm (a NaN on the line) stays NaN
        y = np.where(norm == 0, work.dtype.type(0), work / norm)
    return [round_to(np.moveaxis(y, -1, axis), x.dtype)], [None]
