"""OpenVINO Bincount-17: a histogram of the non-negative integers of a 1-D ``data`` (bincount-17.rst, "equivalent to
torch.bincount"): output[i] counts the elements equal to i, or sums their ``weights`` (optional, as long as data);
its length is max(max(data) + 1, minlength), minlength (default 0) where data is empty. The output is int64 without
weights, the weights' type with them.

The length depends on data's values: asked without them, shape inference answers -1 (the pages' examples write
``<dim>-1</dim>``). Counts and integer sums exactly (a sum the type cannot hold unspecified); float weights summed in
float64 (long double for float64) and rounded once: the accumulation bound, K the largest bin.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import inputs_count
from ._pnorm import round_to, work_dtype
from .schema import Attribute, Port, Schema

DATA_TYPES = ("int32", "int64", "uint8", "uint16", "uint32", "uint64")
WEIGHT_TYPES = ("float32", "float64", "int32", "int64")

SCHEMA = Schema(
    "openvino", "Bincount", (17,),
    attributes=(Attribute("minlength", "int", default=0),),
    inputs=(Port("data"), Port("weights", dtype="float32", dtypes=WEIGHT_TYPES, optional=True)),
    outputs=(Port("output", dtype="int64", rank_of=None),),
    types=((0, DATA_TYPES),),
)
VERSIONS = SCHEMA.versions


def _checked(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> int:
    label = f"Bincount-{since}"
    inputs_count(shapes, (1, 2), label)
    minlength = attributes_of(SCHEMA, since, attributes)["minlength"]
    if minlength < 0:
        raise SpecViolation(f"{label}: minlength {minlength} is negative")
    if len(shapes[0]) != 1:
        raise SpecViolation(f"{label}: data is 1-D, got shape {list(shapes[0])}")
    if len(shapes) == 2 and tuple(shapes[1]) != tuple(shapes[0]):
        raise SpecViolation(f"{label}: weights are as long as data, got {list(shapes[1])} for {list(shapes[0])}")
    return int(minlength)


def _values(since: int, data: Any) -> list[int]:
    label = f"Bincount-{since}"
    x = np.asarray(data)
    if x.dtype != object and x.dtype.name not in DATA_TYPES:
        raise SpecViolation(f"{label}: data of type {x.dtype} is outside T_DATA {list(DATA_TYPES)}")
    values = [int(v) for v in x.reshape(-1)]
    if any(v < 0 for v in values):
        raise SpecViolation(f"{label}: data holds negative values (non-negative integers only)")
    return values


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    minlength = _checked(since, input_shapes, attributes)
    if input_values is None or 0 not in input_values:
        return [(-1,)]
    return [(max(max(_values(since, input_values[0]), default=-1) + 1, minlength),)]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the most elements one bin sums (data's length where its values are not given)."""
    _checked(since, input_shapes, attributes)
    if input_values is None or 0 not in input_values:
        return max(int(input_shapes[0][0]), 1)
    values = _values(since, input_values[0])
    return max([values.count(v) for v in set(values)], default=1)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"Bincount-{since}"
    minlength = _checked(since, [np.shape(x) for x in inputs], attributes)
    values = _values(since, inputs[0])
    length = max(max(values, default=-1) + 1, minlength)
    if len(inputs) == 1:
        counts = np.zeros(length, dtype=np.int64)
        for v in values:
            counts[v] += 1
        return [counts], [None]
    w = np.asarray(inputs[1])
    if w.dtype.name not in WEIGHT_TYPES:
        raise SpecViolation(f"{label}: weights of type {w.dtype} are outside T_WEIGHTS {list(WEIGHT_TYPES)}")
    if w.dtype.kind in "iu":
        sums = [0] * length
        for v, weight in zip(values, w.tolist()):
            sums[v] += int(weight)
        info = np.iinfo(w.dtype)
        bad = np.array([not info.min <= s <= info.max for s in sums], dtype=bool)
        y = np.array([0 if b else s for s, b in zip(sums, bad)], dtype=w.dtype)
        return [y], [bad if bad.any() else None]
    total = np.zeros(length, dtype=work_dtype(w.dtype))
    for v, weight in zip(values, w.astype(total.dtype)):
        total[v] += weight
    return [round_to(total, w.dtype)], [None]
