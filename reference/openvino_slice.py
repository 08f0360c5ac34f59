"""OpenVINO Slice-8: ``data[start:stop:step]`` along ``axes``, "the rules follow python language slicing"
(slice-8.rst).

Each of ``start``, ``stop``, ``step`` (1-D, one length) and ``axes`` (optional, the same length, default ``[0, 1,
..., len(start) - 1]``, each in ``[-r, r - 1]``, unique) gives one axis its Python slice: negative start/stop count
from the end, values beyond the extent are "silently clamped" (as Python clamps), a negative step walks backwards,
a zero step is forbidden. The other axes are copied whole. The page's twelve examples print their values in
comments; each is a case. The output keeps the rank of data (>= 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INTEGER_TYPES, data_input, inputs_count, integer_input, normalized_axis
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "Slice", (8,),
    inputs=(Port("data"), Port("start", dtype="int64", dtypes=INTEGER_TYPES),
            Port("stop", dtype="int64", dtypes=INTEGER_TYPES), Port("step", dtype="int64", dtypes=INTEGER_TYPES),
            Port("axes", dtype="int64", dtypes=INTEGER_TYPES, optional=True)),
    outputs=(Port("output"),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def python_slices(since: int, shape: tuple[int, ...], values: list[np.ndarray], attributes: dict[str, Any]
            ) -> tuple[slice, ...]:
    """One Python slice per data axis."""
    label = f"Slice-{since}"
    attributes_of(SCHEMA, since, attributes)
    if not shape:
        raise SpecViolation(f"{label}: data has rank 0 (rank >= 1 required)")
    start, stop, step = (integer_input(v, label, name) for v, name in zip(values[:3], ("start", "stop", "step")))
    if any(v.ndim != 1 for v in (start, stop, step)) or not start.shape == stop.shape == step.shape:
        raise SpecViolation(f"{label}: start, stop and step are 1-D of one length, got shapes "
                            f"{[list(v.shape) for v in (start, stop, step)]}")
    if len(values) > 3:
        axes = integer_input(values[3], label, "axes")
        if axes.shape != start.shape:
            raise SpecViolation(f"{label}: axes has {axes.size} elements, start {start.size}")
    else:
        axes = np.arange(start.size)
    axes = [normalized_axis(int(a), len(shape), label, "axes value") for a in axes]
    if len(set(axes)) != len(axes):
        raise SpecViolation(f"{label}: axes {axes} are not unique")
    if np.any(step == 0):
        raise SpecViolation(f"{label}: step holds 0")
    found = [slice(None)] * len(shape)
    for axis, a, b, c in zip(axes, start, stop, step):
        found[axis] = slice(int(a), int(b), int(c))
    return tuple(found)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"Slice-{since}"
    inputs_count(input_shapes, (4, 5), label)
    if input_values is None or any(p not in input_values for p in range(1, len(input_shapes))):
        raise SpecViolation(f"{label}: the output shape depends on the values of start, stop, step and axes")
    shape = tuple(input_shapes[0])
    cuts = python_slices(since, shape, [input_values[p] for p in range(1, len(input_shapes))], attributes)
    return [tuple(len(range(*cut.indices(n))) for cut, n in zip(cuts, shape))]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"Slice-{since}"
    inputs_count(inputs, (4, 5), label)
    data = data_input(inputs[0], label)
    return [np.ascontiguousarray(data[python_slices(since, data.shape, list(inputs[1:]), attributes)])], [None]
