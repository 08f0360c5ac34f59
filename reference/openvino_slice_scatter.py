"""OpenVINO SliceScatter-15: a copy of ``data`` with ``updates`` written at the slice ``start:stop:step`` along
``axes`` — the page's NumPy snippet (``out[tuple(slice_list)] = updates``), the slice read as Slice-8 reads it
(reference/openvino_slice.py: Python's slicing, negative values from the end, "silently clamped", step != 0, axes
unique in ``[-r, r - 1]``, default ``[0, ..., len(start) - 1]``).

``updates`` has the shape of that slice ("same shape as data except axes set by axes where dimensions should be
equal to the length of corresponding update slices"): any other shape is refused (NumPy's broadcasting of the
snippet's assignment is not the text's rule). One type T for data and updates; the output is data's shape and type.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INTEGER_TYPES, data_input, inputs_count
from .openvino_slice import python_slices
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "SliceScatter", (15,),
    inputs=(Port("data"), Port("updates"), Port("start", dtype="int64", dtypes=INTEGER_TYPES),
            Port("stop", dtype="int64", dtypes=INTEGER_TYPES), Port("step", dtype="int64", dtypes=INTEGER_TYPES),
            Port("axes", dtype="int64", dtypes=INTEGER_TYPES, optional=True)),
    outputs=(Port("output"),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _region(since: int, shapes: list[tuple[int, ...]], values: list[np.ndarray], attributes: dict[str, Any]):
    label = f"SliceScatter-{since}"
    attributes_of(SCHEMA, since, attributes)
    inputs_count(shapes, (5, 6), label)
    data, updates = tuple(shapes[0]), tuple(shapes[1])
    cuts = python_slices(since, data, values, {})
    region = tuple(len(range(*cut.indices(n))) for cut, n in zip(cuts, data))
    if updates != region:
        raise SpecViolation(f"{label}: updates {list(updates)} have the slice's shape {list(region)}")
    return cuts


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"SliceScatter-{since}"
    if input_values is None or any(p not in input_values for p in range(2, len(input_shapes))):
        raise SpecViolation(f"{label}: the updated region depends on the values of start, stop, step and axes")
    _region(since, [tuple(s) for s in input_shapes], [input_values[p] for p in range(2, len(input_shapes))],
            attributes)
    return [tuple(input_shapes[0])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"SliceScatter-{since}"
    data = data_input(inputs[0], label)
    updates = inputs[1]
    if updates.dtype != data.dtype:
        raise SpecViolation(f"{label}: updates are data's type T ({data.dtype}), got {updates.dtype}")
    cuts = _region(since, [np.shape(x) for x in inputs], list(inputs[2:]), attributes)
    out = np.array(data, copy=True)
    out[cuts] = updates
    return [out], [None]
