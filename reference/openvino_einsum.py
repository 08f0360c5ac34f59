"""OpenVINO Einsum-7: the Einstein summation ``equation`` over any number of inputs of one numeric type T.

The equation as the text defines it: input subscripts separated by ``,``, the output after ``->`` (explicit mode)
or, without it (implicit mode), the labels that appear once on the left in alphabetical order, capitals first
(ASCII), after the ellipsis where the left holds one. Labels are the letters A-Z and a-z; each subscript holds at
most one ``...``, which covers the dimensions its labels leave and broadcasts (numpy rules) across the inputs;
where an input subscript holds one, the output must hold exactly one. A subscript's length is its input's rank; one
label names equal dimensions (a label repeated in a subscript takes the diagonal); blanks anywhere are removed.
An output label no input holds, or one repeated in the output, is no equation the text defines: SpecViolation.

The value is the sum over the labels absent from the output of the products of the inputs' elements (the text's
pairwise steps give the same sum): evaluated once the equation is spelled explicitly, in float64 (long double for
float64 inputs) or in Python integers, rounded once; an integer result the type cannot hold is unspecified (the
text says nothing of overflow). Judged by the accumulation bound, K the terms one output element sums (the op on
ones) plus the n - 1 roundings of each term's n-factor product, at the op on |x| (the contract's magnitude).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import type_name
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "Einsum", (7,),
    attributes=(Attribute("equation", "enum", required=True),),
    inputs=(Port("inputs"),), outputs=(Port("output"),),
    types=((0, (*OV_FLOATS, *OV_INTEGERS)),),
)
VERSIONS = SCHEMA.versions

_SUBSCRIPT = re.compile(r"^[A-Za-z]*(\.\.\.)?[A-Za-z]*$")


def parse(since: int, equation: Any, shapes: list[tuple[int, ...]]) -> tuple[list[str], str, tuple[int, ...]]:
    """(input subscripts, output subscript, output shape) of an equation on inputs of ``shapes``; SpecViolation
    for what the text does not define."""
    label = f"Einsum-{since}"
    if not isinstance(equation, str):
        raise SpecViolation(f"{label}: equation is a string, got {equation!r}")
    text = equation.replace(" ", "")
    if text.count("->") > 1:
        raise SpecViolation(f"{label}: the equation {equation!r} has more than one '->'")
    left, arrow, right = text.partition("->")
    subscripts = left.split(",")
    if len(subscripts) != len(shapes) or not shapes:
        raise SpecViolation(f"{label}: the equation {equation!r} has {len(subscripts)} input subscript(s) for "
                            f"{len(shapes)} input(s)")
    for s in [*subscripts, *([right] if arrow else [])]:
        if not _SUBSCRIPT.match(s):
            raise SpecViolation(f"{label}: subscript {s!r} is not letters with at most one ellipsis")
    sizes: dict[str, int] = {}
    ellipses = []
    for s, shape in zip(subscripts, shapes, strict=True):
        labels = s.replace("...", "")
        covered = len(shape) - len(labels)
        if covered < 0 or (covered and "..." not in s):
            raise SpecViolation(f"{label}: subscript {s!r} does not match an input of rank {len(shape)}")
        head = s.index("...") if "..." in s else len(labels)
        dims = dict(enumerate(shape))
        for i, ch in enumerate(labels):
            size = dims[i if i < head else i + covered]
            if sizes.setdefault(ch, size) != size:
                raise SpecViolation(f"{label}: label {ch!r} names dimensions of sizes {sizes[ch]} and {size}")
        if "..." in s:
            ellipses.append(tuple(shape[head:head + covered]))
    try:
        broadcast = tuple(np.broadcast_shapes(*ellipses)) if ellipses else ()
    except ValueError:
        raise SpecViolation(f"{label}: the ellipsis dimensions {ellipses} do not broadcast") from None
    if not arrow:  # implicit mode: the labels that appear once, ASCII order, after the ellipsis
        once = sorted(ch for ch in sizes if left.count(ch) == 1)
        right = ("..." if ellipses else "") + "".join(once)
    outs = right.replace("...", "")
    if ellipses and "..." not in right:
        raise SpecViolation(f"{label}: an input subscript holds an ellipsis, so the output must hold one")
    if len(set(outs)) != len(outs) or any(ch not in sizes for ch in outs):
        raise SpecViolation(f"{label}: output subscript {right!r} repeats a label or names one no input has")
    shape: list[int] = []
    for part in re.split(r"(\.\.\.)", right):
        shape.extend(broadcast if part == "..." else (sizes[ch] for ch in part))
    return subscripts, right, tuple(shape)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    found = attributes_of(SCHEMA, since, attributes)
    return [parse(since, found["equation"], [tuple(s) for s in input_shapes])[2]]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the terms one output element sums (the op on ones) plus each term's n - 1 product roundings."""
    found = attributes_of(SCHEMA, since, attributes)
    shapes = [tuple(s) for s in input_shapes]
    subscripts, right, _ = parse(since, found["equation"], shapes)
    ones = np.einsum(f"{','.join(subscripts)}->{right}", *(np.ones(s) for s in shapes))
    return int(np.max(ones, initial=1)) + len(shapes) - 1


def _inputs(since: int, inputs: list[Any]) -> list[np.ndarray]:
    label = f"Einsum-{since}"
    if not inputs or not all(isinstance(x, np.ndarray) for x in inputs):
        raise SpecViolation(f"{label} takes one or more tensors")
    first = inputs[0]
    if type_name(first) not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"{label}: input type {type_name(first)} is not in the type constraint")
    if any(x.dtype != first.dtype for x in inputs):
        raise SpecViolation(f"{label}: every input is of type T, got {[type_name(x) for x in inputs]}")
    return list(inputs)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    xs = _inputs(since, inputs)
    found = attributes_of(SCHEMA, since, attributes)
    subscripts, right, shape = parse(since, found["equation"], [x.shape for x in xs])
    explicit = f"{','.join(subscripts)}->{right}"
    dtype = xs[0].dtype
    if dtype.kind in "iu":
        exact = np.asarray(np.einsum(explicit, *(x.astype(object) for x in xs)), dtype=object).reshape(shape)
        info = np.iinfo(dtype)
        flat = [int(v) for v in exact.reshape(-1)]
        bad = np.array([not info.min <= v <= info.max for v in flat], dtype=bool).reshape(shape)
        y = np.array([v if info.min <= v <= info.max else 0 for v in flat], dtype=dtype).reshape(shape)
        return [y], [bad if bad.any() else None]
    wide = work_dtype(dtype)
    with np.errstate(all="ignore"):
        y = np.asarray(np.einsum(explicit, *(x.astype(wide) for x in xs))).reshape(shape)
    return [round_to(y, dtype)], [None]
