"""OpenVINO VariadicSplit-1 (movement/variadic-split-1.rst): one output per ``split_lengths`` element, the i-th
``split_lengths[i]`` long along ``axis`` (a scalar or [1] tensor in [-rank, rank-1]); one ``-1`` at most takes what
the others leave; the lengths sum to the axis's dim. A length of 0 gives an empty output (the text forbids none).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, INDEX_TYPES, axis_of, movement, one_d
from .schema import Port, Schema

SCHEMA = Schema("openvino", "VariadicSplit", (1,),
                inputs=(Port("data"), Port("axis", dtype="int64", dtypes=INDEX_TYPES),
                        Port("split_lengths", dtype="int64", dtypes=INDEX_TYPES)),
                outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def lengths_of(label: str, extent: int, lengths: list[int]) -> list[int]:
    if lengths.count(-1) > 1 or any(n < -1 for n in lengths):
        raise SpecViolation(f"{label}: split_lengths {lengths} holds values below -1 or more than one -1")
    known = sum(n for n in lengths if n != -1)
    if -1 in lengths:
        if known > extent:
            raise SpecViolation(f"{label}: split_lengths {lengths} exceed the axis's dim {extent}")
        lengths = [extent - known if n == -1 else n for n in lengths]
    if sum(lengths) != extent:
        raise SpecViolation(f"{label}: split_lengths {lengths} do not sum to the axis's dim {extent}")
    return lengths


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"VariadicSplit-{since}"
    x = data[0]
    if ints[0].size != 1 or ints[0].ndim > 1:
        raise SpecViolation(f"{label}: axis is a scalar or a [1] tensor, got shape {list(ints[0].shape)}")
    axis = axis_of(label, int(ints[0].reshape(-1)[0]), x.ndim)
    lengths = lengths_of(label, x.shape[axis], one_d(label, "split_lengths", ints[1]))
    bounds = np.cumsum([0, *lengths])
    return [np.take(x, np.arange(bounds[i], bounds[i + 1]), axis=axis) for i in range(len(lengths))]


output_shapes, evaluate = movement(SCHEMA, _compute)
