"""OpenVINO TopK-1, TopK-3, TopK-11: the k largest (``mode`` max) or smallest (min) elements of every slice along
``axis``, with their indices, ordered by ``sort`` (top-k-11.rst, "Detailed Description"):

- ``value``: descending values for max, ascending for min; ``index``: the selected elements in ascending index order;
  ``none``: "undefined" - no order is defined, so both outputs are unspecified there (only their shapes are checked).
- Equal values: -1 and -3 say "their output order is not determined", -11 the same unless ``stable`` is true ("the
  relative order of equal elements guaranteed to be maintained": the one earlier in the input first, and of tied
  candidates at the k-th place the earlier ones selected). So without stability an index whose value occurs more than
  once in its slice is unspecified, and with ``sort = index`` a slice whose k-th place is one of several equal values
  not all selected (the page's own [5, 3, 1, 2, 5, 5] example: three correct results) is unspecified whole.
- A slice holding NaN: the texts define no order with NaN - unspecified whole.

``k`` (a scalar of an integer type, a Constant: it fixes the shape) lies in ``[1, input.shape[axis]]`` ("undefined"
otherwise in -11: refused here, no value to compare). ``index_element_type`` (-3, -11) chooses int32 (default) or
int64; -1 names no type for its indices: int32, as OpenVINO builds it. ``axis`` is required, negative from the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INTEGER_TYPES, data_input, inputs_count, normalized_axis, scalar_input, value_of
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "TopK", (1, 3, 11),
    attributes=(Attribute("axis", "int", required=True),
                Attribute("mode", "enum", values=("min", "max"), required=True),
                Attribute("sort", "enum", values=("value", "index", "none"), required=True),
                Attribute("index_element_type", "enum", default="i32", values=("i32", "i64"), since=3),
                Attribute("stable", "bool", default=False, since=11)),
    inputs=(Port("data"), Port("k", dtype="int64", dtypes=INTEGER_TYPES)),
    outputs=(Port("values"), Port("indices", dtype="int32", dtype_attribute="index_element_type")),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _geometry(since: int, shape: tuple[int, ...], k: int, attributes: dict[str, Any]) -> tuple[dict, int]:
    label = f"TopK-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if not shape:
        raise SpecViolation(f"{label}: a 0-D input has no axis")
    axis = normalized_axis(int(found["axis"]), len(shape), label)
    if not 1 <= k <= shape[axis]:
        raise SpecViolation(f"{label}: k = {k} outside [1, {shape[axis]}] (its behaviour is undefined)")
    return found, axis


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"TopK-{since}"
    inputs_count(input_shapes, (2,), label)
    k = scalar_input(value_of(input_values, 1, label, "k"), label, "k")
    shape = tuple(input_shapes[0])
    _, axis = _geometry(since, shape, k, attributes)
    out = (*shape[:axis], k, *shape[axis + 1:])
    return [out, out]


def _one_slice(line: np.ndarray, k: int, largest: bool, by: str, stable: bool
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(values, indices, values unspecified, indices unspecified) of one slice."""
    n = line.size
    if np.isnan(line.astype(np.float64)).any():
        everything = np.ones(k, dtype=bool)
        return line[:k].copy(), np.arange(k), everything, everything
    plain = line.tolist()  # Python numbers: negating an unsigned element would wrap
    order = sorted(range(n), key=lambda i: (-plain[i] if largest else plain[i], i))  # best first, earlier first
    chosen = order[:k]
    worst = line[chosen[-1]]
    tied_out = [i for i in order[k:] if line[i] == worst]  # equal candidates left out at the k-th place
    if by == "index":
        chosen = sorted(chosen)
    values, indices = line[chosen], np.array(chosen)
    none = np.zeros(k, dtype=bool)
    if by == "none":
        return values, indices, ~none, ~none
    if stable:
        return values, indices, none, none
    if by == "index" and tied_out:
        return values, indices, ~none, ~none  # which of the equal candidates is kept moves the order
    counts = {v: int(np.count_nonzero(line == v)) for v in set(line[chosen].tolist())}
    return values, indices, none, np.array([counts[v] > 1 for v in values.tolist()], dtype=bool)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"TopK-{since}"
    inputs_count(inputs, (2,), label)
    data = data_input(inputs[0], label)
    k = scalar_input(inputs[1], label, "k")
    found, axis = _geometry(since, data.shape, k, attributes)
    moved = np.moveaxis(data, axis, -1)
    lines = moved.reshape(-1, data.shape[axis])
    results = [_one_slice(line, k, found["mode"] == "max", found["sort"], bool(found.get("stable", False)))
               for line in lines]
    shape = (*moved.shape[:-1], k)
    index_type = np.int64 if found.get("index_element_type", "i32") == "i64" else np.int32

    def back(part: int, dtype: Any) -> np.ndarray:
        stacked = np.array([r[part] for r in results], dtype=dtype).reshape(shape)
        return np.ascontiguousarray(np.moveaxis(stacked, -1, axis))

    values, indices = back(0, data.dtype), back(1, index_type)
    masks = [back(2, bool), back(3, bool)]
    return [values, indices], [m if m.any() else None for m in masks]
