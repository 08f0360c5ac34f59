"""OpenVINO StridedSlice-1: the slice NumPy's ``array[b0:e0:s0, ..., np.newaxis, ..., k, ...]`` takes, spelled as
begin/end/stride inputs and five bit masks (strided-slice-1.rst).

Every example of the page states its meaning as such a NumPy expression ("Equivalent of performing
array[0:4, 1:4, 0:4:2, ...]"), and that is the reading here, step i of M = len(begin) (masks padded with zeros or cut
to M, as the text says):
- ``new_axis_mask[i]``: a new axis of 1 (begin, end, stride ignored; no data axis consumed);
- ``ellipsis_mask[i]`` (at most one bit): ``rank - (M - sum(new_axis_mask) - 1)`` data axes copied whole;
- ``shrink_axis_mask[i]``: the element ``begin[i]`` (negative counts from the end; it must lie in the axis), the
  axis removed; the text requires ``begin[i] == end[i]`` there ("MUST EQUAL") - anything else is refused;
- otherwise Python's slice ``begin[i]:end[i]:stride[i]``, ``begin_mask[i]``/``end_mask[i]`` leaving that end open;
  data axes after the last step are copied whole. ``stride`` defaults to 1 and holds no zero.

Two sentences of the text contradict those equivalences and are not the reference (docs/spec-notes.md, "OpenVINO
indexing"): the first element "is added to the output" before the end is compared (so ``begin == end`` would give
one element where NumPy gives none), and a reverse step's ``end_mask`` sets end to 0 exclusive ("does not allow
slicing inclusively with the first value"), where its example's ``array[1:, :, ::-1]`` includes it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INTEGER_TYPES, data_input, inputs_count, integer_input
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "StridedSlice", (1,),
    attributes=(Attribute("begin_mask", "ints", required=True), Attribute("end_mask", "ints", required=True),
                Attribute("new_axis_mask", "ints", default=[0]), Attribute("shrink_axis_mask", "ints", default=[0]),
                Attribute("ellipsis_mask", "ints", default=[0])),
    inputs=(Port("data"), Port("begin", dtype="int64", dtypes=INTEGER_TYPES),
            Port("end", dtype="int64", dtypes=INTEGER_TYPES),
            Port("stride", dtype="int64", dtypes=INTEGER_TYPES, optional=True)),
    outputs=(Port("output", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions
_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


def _index(since: int, shape: tuple[int, ...], values: list[np.ndarray], attributes: dict[str, Any]) -> tuple:
    """The NumPy index the instance spells (slices, None for a new axis, ints for shrunk axes, Ellipsis)."""
    label = f"StridedSlice-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    begin, end = (integer_input(v, label, name) for v, name in zip(values[:2], ("begin", "end")))
    stride = integer_input(values[2], label, "stride") if len(values) > 2 else np.ones_like(begin)
    if any(v.ndim != 1 for v in (begin, end, stride)) or not begin.shape == end.shape == stride.shape:
        raise SpecViolation(f"{label}: begin, end and stride are 1-D of one length, got "
                            f"{[list(v.shape) for v in (begin, end, stride)]}")
    m = begin.size
    masks = {}
    for name in _MASKS:
        bits = [int(b) for b in (found[name] if isinstance(found[name], list | tuple) else [found[name]])]
        if any(b not in (0, 1) for b in bits):
            raise SpecViolation(f"{label}: {name} holds values other than 0 and 1: {bits}")
        masks[name] = (bits + [0] * m)[:m]  # padded with zeros, the rest ignored
    if sum(masks["ellipsis_mask"]) > 1:
        raise SpecViolation(f"{label}: ellipsis_mask has more than one non-zero bit")
    if np.any(stride == 0):
        raise SpecViolation(f"{label}: stride holds 0")
    consumed = sum(1 for i in range(m) if not masks["new_axis_mask"][i] and not masks["ellipsis_mask"][i])
    if consumed > len(shape):
        raise SpecViolation(f"{label}: {consumed} slicing steps for data of rank {len(shape)}")
    index, axis = [], 0
    for i in range(m):
        if masks["ellipsis_mask"][i]:
            skipped = len(shape) - consumed
            index.append(Ellipsis)
            axis += skipped
        elif masks["new_axis_mask"][i]:
            index.append(None)
        elif masks["shrink_axis_mask"][i]:
            size, b = shape[axis], int(begin[i])
            if int(end[i]) != b:
                raise SpecViolation(f"{label}: shrink_axis_mask[{i}] with begin {b} != end {int(end[i])} "
                                    "(the text: begin MUST EQUAL end)")
            if not -size <= b < size:
                raise SpecViolation(f"{label}: shrink_axis_mask[{i}] selects {b}, outside an axis of {size}")
            index.append(b + size if b < 0 else b)
            axis += 1
        else:
            index.append(slice(None if masks["begin_mask"][i] else int(begin[i]),
                               None if masks["end_mask"][i] else int(end[i]), int(stride[i])))
            axis += 1
    return tuple(index)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"StridedSlice-{since}"
    inputs_count(input_shapes, (3, 4), label)
    if input_values is None or any(p not in input_values for p in range(1, len(input_shapes))):
        raise SpecViolation(f"{label}: the output shape depends on the values of begin, end and stride")
    shape = tuple(input_shapes[0])
    index = _index(since, shape, [input_values[p] for p in range(1, len(input_shapes))], attributes)
    return [np.empty(shape, dtype=np.int8)[index].shape]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"StridedSlice-{since}"
    inputs_count(inputs, (3, 4), label)
    data = data_input(inputs[0], label)
    return [np.ascontiguousarray(data[_index(since, data.shape, list(inputs[1:]), attributes)])], [None]
