"""OpenVINO Unique-10: the unique elements of the flattened input, or its unique slices along ``axis`` (a Constant
input), with the index of each one's first occurrence, each input element's (slice's) place among them and their
counts (movement/unique-10.rst).

- Order: ``sorted`` true, ascending (slices: lexicographically, element by element in row-major order - "sorted in
  ascending order" of subtensors read as NumPy's unique along an axis does); false, the order of first occurrence
  ("maintain the same order as in the input tensor").
- Equality is the type's: -0.0 equals +0.0 (one unique element, the first occurrence's value). NaN equals nothing,
  and the text says nothing of it: an input holding NaN leaves every output unspecified (only the shapes are
  compared, where they do not depend on it).
- Output 1's first dimension (or the axis) and outputs 2 and 4 are "number of unique" long (data-dependent:
  ``output_shapes`` gives the upper bound, every element or slice unique); output 3 has one entry per element or
  slice.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, normalized_axis
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "Unique", (10,),
    attributes=(Attribute("sorted", "bool", default=True),
                Attribute("index_element_type", "enum", default="i64", values=("i64", "i32")),
                Attribute("count_element_type", "enum", default="i64", values=("i64", "i32"))),
    inputs=(Port("data"), Port("axis", dtype="int64", dtypes=("int32", "int64"), optional=True)),
    outputs=(Port("unique", rank_of=None),
             Port("indices", dtype="int64", dtype_attribute="index_element_type", rank_of=None),
             Port("rev_indices", dtype="int64", dtype_attribute="index_element_type", rank_of=None),
             Port("counts", dtype="int64", dtype_attribute="count_element_type", rank_of=None)),
    types=((0, (*ANY_TYPE, "bool")),),
)
VERSIONS = SCHEMA.versions


def _axis(shape: tuple[int, ...], given: Any) -> int | None:
    if given is None:
        return None
    a = np.asarray(given)
    if a.size != 1 or a.ndim > 1 or a.dtype.name not in ("int32", "int64"):
        raise SpecViolation(f"Unique-10: axis is a scalar or 1-element 1D int32/int64 tensor, got {a.dtype} "
                            f"{list(a.shape)}")
    if not shape:
        raise SpecViolation("Unique-10: a 0-D input has no axis")
    return normalized_axis(int(a.reshape(-1)[0]), len(shape), "Unique-10")


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    """The upper bound: every element (slice) unique."""
    attributes_of(SCHEMA, since, attributes)
    if len(input_shapes) not in (1, 2):
        raise SpecViolation(f"Unique-10: takes 1 or 2 inputs, got {len(input_shapes)}")
    shape = tuple(input_shapes[0])
    axis = _axis(shape, (input_values or {}).get(1)) if len(input_shapes) == 2 else None
    n = int(np.prod(shape)) if axis is None else shape[axis]
    first = (n,) if axis is None else shape
    return [first, (n,), (n,), (n,)]


def _keys(data: np.ndarray, axis: int | None) -> list[tuple]:
    """Each element (slice) as a tuple of Python numbers, compared with the type's equality."""
    if axis is None:
        return [(v,) for v in data.reshape(-1).tolist()]
    moved = np.moveaxis(data, axis, 0)
    return [tuple(s.reshape(-1).tolist()) for s in moved]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = attributes_of(SCHEMA, since, attributes)
    if len(inputs) not in (1, 2):
        raise SpecViolation(f"Unique-10: takes 1 or 2 inputs, got {len(inputs)}")
    data = np.asarray(inputs[0])
    if data.dtype.name not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"Unique-10: {data.dtype} is not a supported type")
    axis = _axis(data.shape, inputs[1] if len(inputs) == 2 else None)
    keys = _keys(data, axis)
    firsts: list[int] = []
    for i, key in enumerate(keys):  # first occurrences, in input order (== : -0.0 is +0.0)
        if not any(keys[j] == key for j in firsts):
            firsts.append(i)
    if found["sorted"]:
        firsts.sort(key=lambda i: keys[i])  # ascending, slices lexicographically
    place = [next(k for k, j in enumerate(firsts) if keys[j] == key) for key in keys]
    counts = [place.count(k) for k in range(len(firsts))]
    index_type = np.int32 if found["index_element_type"] == "i32" else np.int64
    count_type = np.int32 if found["count_element_type"] == "i32" else np.int64
    unique = data.reshape(-1)[firsts] if axis is None else np.take(data, firsts, axis=axis)
    outputs = [np.ascontiguousarray(unique), np.array(firsts, dtype=index_type), np.array(place, dtype=index_type),
               np.array(counts, dtype=count_type)]
    nan = data.dtype.kind == "f" or data.dtype.name == "bfloat16"
    if nan and np.isnan(data.astype(np.float64)).any():
        return outputs, [np.ones(o.shape, dtype=bool) for o in outputs]
    return outputs, [None] * 4
