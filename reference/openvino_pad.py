"""OpenVINO Pad-1 and Pad-12 (movement/pad-1.rst, pad-12.rst): ``data`` extended by ``pads_begin[D]`` and
``pads_end[D]`` elements along each axis D. Output element o along D reads input element i = o - pads_begin[D]; where
i falls outside [0, n-1] the mode says what it is:

* ``constant``: ``pad_value`` (input 4, a scalar of type T; 0 when left out);
* ``edge``: the nearest edge element (i clamped);
* ``reflect``: mirrored without the edge (-i, 2(n-1) - i), each pad at most n - 1;
* ``symmetric``: mirrored with the edge (-i-1, 2n-1-i), each pad at most n.

Pad-1's pads are non-negative; Pad-12's may be negative: that many elements cropped, the output dim
``max(pads_begin + n + pads_end, 0)`` (its mixed-pads examples map the padded elements against the whole input, as
here). ``pad_value`` with a mode other than constant is rejected ("shouldn't be set").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_TYPE, INDEX_TYPES, movement, one_d
from .schema import Attribute, Port, Schema

MODES = ("constant", "edge", "reflect", "symmetric")
SCHEMA = Schema("openvino", "Pad", (1, 12), attributes=(Attribute("pad_mode", "enum", values=MODES, required=True),),
                inputs=(Port("data"), Port("pads_begin", dtype="int64", dtypes=INDEX_TYPES),
                        Port("pads_end", dtype="int64", dtypes=INDEX_TYPES), Port("pad_value", optional=True)),
                outputs=(Port("output"),), types=((0, ANY_TYPE),))
VERSIONS = SCHEMA.versions


def source_index(mode: str, i: int, n: int) -> int:
    """The input element output position i (relative to the input's start) reads along an axis of n; -1: the
    constant."""
    if 0 <= i < n:
        return i
    if mode == "constant":
        return -1
    if mode == "edge":
        return min(max(i, 0), n - 1)
    if mode == "reflect":
        return -i if i < 0 else 2 * (n - 1) - i
    return -i - 1 if i < 0 else 2 * n - 1 - i  # symmetric


def _axis_sources(label: str, since: int, mode: str, n: int, begin: int, end: int) -> np.ndarray:
    if since < 12 and (begin < 0 or end < 0):
        raise SpecViolation(f"{label}: pads {begin}, {end} - Pad-1's pads are non-negative")
    limit = {"reflect": n - 1, "symmetric": n}.get(mode)
    if limit is not None and max(begin, end) > limit:
        raise SpecViolation(f"{label}: {mode} pads {begin}, {end} exceed {limit} for a dim of {n}")
    if mode == "edge" and n == 0 and max(begin, end) > 0:
        raise SpecViolation(f"{label}: edge padding of an empty axis has no edge to copy")
    return np.array([source_index(mode, o - begin, n) for o in range(max(begin + n + end, 0))], dtype=np.int64)


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Pad-{since}"
    x, mode = data[0], str(attrs["pad_mode"])
    begin, end = one_d(label, "pads_begin", ints[0]), one_d(label, "pads_end", ints[1])
    if len(begin) != x.ndim or len(end) != x.ndim:
        raise SpecViolation(f"{label}: pads_begin {begin} and pads_end {end} need one value per axis ({x.ndim})")
    if len(data) > 1:
        if mode != "constant":
            raise SpecViolation(f"{label}: pad_value is for pad_mode constant only, not {mode}")
        if data[1].ndim != 0:
            raise SpecViolation(f"{label}: pad_value is a scalar, got shape {list(data[1].shape)}")
    value = data[1] if len(data) > 1 else np.zeros((), x.dtype)
    sources = [_axis_sources(label, since, mode, n, b, e) for n, b, e in zip(x.shape, begin, end)]
    shape = tuple(len(s) for s in sources)
    if x.size == 0 or 0 in shape:
        return [np.full(shape, value, dtype=x.dtype)]
    out = x[np.ix_(*[np.maximum(s, 0) for s in sources])] if x.ndim else x.copy()
    padded = np.zeros(shape, dtype=bool)
    for axis, s in enumerate(sources):
        padded |= (s < 0).reshape([-1 if a == axis else 1 for a in range(x.ndim)])
    return [np.where(padded, value, out).astype(x.dtype)]


output_shapes, evaluate = movement(SCHEMA, _compute)
