"""oneDNN Graph MaxPoolBackward (domain onednn, version 1).

diff_src is the gradient of MaxPool with the same attributes: each diff_dst element goes to the src element that
is its window's maximum (MaxPool's windows: taps ``dilations`` apart, padding never wins), and diff_src sums what
reaches each element (float64, rounded once).  The page names the op "AvgPoolBackward" in its first sentence (an
erratum: the rest is MaxPoolBackward's).  It defines no rounding_type: diff_dst's extent picks the windows
(_onednn_windows.backward_axes).

What the text leaves open, and how the reference makes it judgeable (docs/spec-notes.md, "oneDNN Graph
MaxPoolBackward"):
  * Which of several equal maxima (ties, -0.0 vs +0.0) receives the gradient.  Any choice - one of them, or a
    split, which is still a subgradient - moves the gradient only inside the tied elements.  ``tie_groups`` links
    the tied elements of every tie window (connected components: windows overlap) and gives each group the sum
    every admissible routing conserves.  ``evaluate`` returns one admissible answer (first maximum in row-major
    tap order, as MaxPool's reference picks) and marks the group members unspecified: a comparator checks the
    other elements one by one and each group's sum.
  * A window holding a NaN has no maximum (MaxPool D9): its taps join a group marked ``free`` (no sum to check)
    and hold NaN.  A window with no input element reaches nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._errors import SpecViolation, check_float_input
from ._maxwindows import max_windows, tap_positions
from ._onednn_windows import backward_axes, common_attributes, from_ncx, ncx_shape, to_ncx, window_coverage
from ._windows import Axis, to_dtype
from .schema import ONEDNN_TYPES, Port, Schema, pooled

__all__ = ["OP", "SCHEMA", "VERSIONS", "TieGroups", "evaluate", "magnitude", "output_shapes",
           "tie_groups", "window_elements"]

OP = "MaxPoolBackward"
# MaxPool's attributes less rounding_type, which this page does not define
SCHEMA = Schema("onednn", OP, (1,),
                attributes=tuple(a for a in common_attributes(dilations=True) if a.name != "rounding_type"),
                inputs=(Port("src"), Port("diff_dst")), outputs=(Port("diff_src"),),
                types=((0, ONEDNN_TYPES),), axes=pooled())
VERSIONS = SCHEMA.versions
REQUIRED = SCHEMA.required_names(1)
OPTIONAL = tuple(sorted(SCHEMA.attribute_names(1) - set(REQUIRED)))


@dataclass(frozen=True)
class TieGroups:
    """Where the routing is the runtime's choice.  ``group``: per diff_src element (the op's layout) the index of
    its group, -1 where one routing is forced.  Per group: ``sums`` the float64 total every admissible routing
    puts into the group's elements, ``magnitudes`` the same total of |terms| (for the error bound), ``terms``
    how many diff_dst elements it adds, ``free`` True where a NaN window leaves even the total open."""

    group: np.ndarray
    sums: np.ndarray
    magnitudes: np.ndarray
    terms: np.ndarray
    free: np.ndarray


def _geometry(src_shape: Sequence[int], dst_shape: Sequence[int], attributes: dict[str, Any]
              ) -> tuple[tuple[int, ...], bool, list[Axis]]:
    if len(src_shape) != len(dst_shape):
        raise SpecViolation(f"{OP}-1: src has rank {len(src_shape)}, diff_dst {len(dst_shape)}")
    src_ncx, nxc = ncx_shape(src_shape, attributes)
    dst_ncx, _ = ncx_shape(dst_shape, attributes)
    if src_ncx[:2] != dst_ncx[:2]:
        raise SpecViolation(f"{OP}-1: src {tuple(src_shape)} and diff_dst {tuple(dst_shape)} differ in batch or "
                            "channels")
    return src_ncx, nxc, backward_axes(f"{OP}-1", src_ncx, dst_ncx[2:], attributes, REQUIRED, OPTIONAL, True)


def _two(inputs: Sequence[Any]) -> tuple[Any, Any]:
    if len(inputs) != 2:
        raise SpecViolation(f"{OP}-1 takes exactly two inputs (src, diff_dst), got {len(inputs)}")
    return inputs[0], inputs[1]


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    src, dst = _two(input_shapes)
    _geometry(src, dst, attributes)
    return [tuple(src)]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    """The most diff_dst terms one diff_src element can sum (the windows it lies in)."""
    src, dst = _two(input_shapes)
    return window_coverage(_geometry(src, dst, attributes)[2])


@dataclass(frozen=True)
class _Routing:
    nxc: bool
    src_shape: tuple[int, ...]  # channels-first
    dy: np.ndarray  # float64, channels-first, flattened over windows: (W,)
    target: np.ndarray  # (W,) flat src index of the first maximum; -1: the window reaches nothing
    definite: np.ndarray  # (W,) the window's gradient goes to target and nowhere else
    taps: np.ndarray  # (W, K) flat src index of each tap, -1 outside the input
    linked: np.ndarray  # (W, K) taps joined into a group: tied maxima, or every tap of a NaN window
    nan: np.ndarray  # (W,) the window holds a NaN


def _route(inputs: Sequence[np.ndarray], attributes: dict[str, Any]) -> _Routing:
    src, dy = _two(inputs)
    check_float_input(src, "input 0 (src)")
    check_float_input(dy, "input 1 (diff_dst)")
    if src.dtype != dy.dtype:
        raise SpecViolation(f"{OP}-1: src is {src.dtype}, diff_dst {dy.dtype}; the page pairs one type T")
    src_ncx_shape, nxc, axes = _geometry(src.shape, dy.shape, attributes)
    x = to_ncx(src, nxc)
    positions = [a.taps() for a in axes]
    valid = [(p >= 0) & (p < a.size) for p, a in zip(positions, axes)]
    best, offset, found, has_nan = max_windows(x, positions, valid)
    taps = tap_positions(x.shape, positions, valid)
    k = taps.shape[-1]
    taps = taps.reshape(-1, k)
    values = x.reshape(-1).astype(np.float64)[np.clip(taps, 0, None)]
    with np.errstate(invalid="ignore"):
        equal = (taps >= 0) & (values == best.reshape(-1, 1).astype(np.float64)) & found.reshape(-1, 1)
    nan = has_nan.reshape(-1)
    tie = equal.sum(axis=1) > 1
    plane = np.arange(x.shape[0] * x.shape[1], dtype=np.int64) * int(np.prod(x.shape[2:]))
    base = np.broadcast_to(plane.reshape(x.shape[:2] + (1,) * len(axes)), offset.shape).reshape(-1)
    target = np.where(found.reshape(-1) & ~nan, offset.reshape(-1) + base, -1)
    linked = np.where(nan[:, None], taps >= 0, equal & tie[:, None])
    return _Routing(nxc, tuple(x.shape), to_ncx(dy, nxc).astype(np.float64).reshape(-1), target,
                    (target >= 0) & ~tie, taps, linked, nan)


def _scatter(r: _Routing, dy: np.ndarray) -> np.ndarray:
    """Every routed window's value added at its first maximum (float64, flat over src channels-first)."""
    out = np.zeros(int(np.prod(r.src_shape)), dtype=np.float64)
    routed = r.target >= 0
    np.add.at(out, r.target[routed], dy[routed])
    return out


def _labels(r: _Routing) -> np.ndarray:
    """Per src element (flat, channels-first) the group label: the smallest flat index of its connected component
    of linked taps (windows sharing a linked element are one group), -1 outside every group."""
    windows = np.flatnonzero(r.linked.any(axis=1))
    size = int(np.prod(r.src_shape))
    label = np.full(size, -1, dtype=np.int64)
    if windows.size == 0:
        return label
    member, taps = r.linked[windows], r.taps[windows]
    label[taps[member]] = taps[member]
    big = np.iinfo(np.int64).max
    while True:  # min-label propagation over windows: each pass crosses one more window of a chain
        per_window = np.where(member, label[np.clip(taps, 0, None)], big).min(axis=1)
        new = label.copy()
        np.minimum.at(new, taps[member], np.broadcast_to(per_window[:, None], taps.shape)[member])
        new[label >= 0] = np.minimum(new[label >= 0], new[new[label >= 0]])  # pointer jump: shortcut chains
        if np.array_equal(new, label):
            return label
        label = new


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """diff_src with the first-maximum routing; the mask marks tie groups (the value there is one admissible
    answer: check each group's sum with ``tie_groups``) and NaN windows' taps (NaN: nothing is admissible)."""
    r = _route(inputs, attributes)
    dx = _scatter(r, r.dy)
    label = _labels(r)
    nan_rows = r.nan & r.linked.any(axis=1)
    nan_taps = r.taps[nan_rows][r.linked[nan_rows]]
    if nan_taps.size:  # a NaN window's group is free as a whole: no value is admissible rather than another
        dx[np.isin(label, np.unique(label[nan_taps])) & (label >= 0)] = np.nan
    dtype = inputs[1].dtype
    y = from_ncx(to_dtype(dx.reshape(r.src_shape), dtype), r.nxc)
    mask = label >= 0
    return [y], [from_ncx(mask.reshape(r.src_shape), r.nxc) if mask.any() else None]


def tie_groups(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> TieGroups:
    """The groups ``evaluate``'s mask covers, numbered in order of their first element (channels-first order)."""
    r = _route(inputs, attributes)
    label = _labels(r)
    roots, group = np.unique(label[label >= 0], return_inverse=True)
    ids = np.full(label.shape, -1, dtype=np.int64)
    ids[label >= 0] = group
    n = roots.size
    sums, mags = np.zeros(n), np.zeros(n)
    terms = np.zeros(n, dtype=np.int64)
    free = np.zeros(n, dtype=bool)
    # a window's gradient belongs to a group when it lands there: definite windows at their target, tie and NaN
    # windows at any of their linked taps (all in one group)
    first_linked = np.where(r.linked.any(axis=1), r.taps[np.arange(len(r.taps)), r.linked.argmax(axis=1)], -1)
    landing = np.where(r.definite, r.target, first_linked)
    ok = landing >= 0
    gid = np.where(ok, ids[np.clip(landing, 0, None)], -1)
    inside = gid >= 0
    np.add.at(sums, gid[inside], r.dy[inside])
    np.add.at(mags, gid[inside], np.abs(r.dy[inside]))
    np.add.at(terms, gid[inside], 1)
    free[np.unique(gid[inside & r.nan])] = True
    return TieGroups(from_ncx(ids.reshape(r.src_shape), r.nxc), sums, mags, terms, free)


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> np.ndarray:
    """float64 sum of |diff_dst| reaching each diff_src element with ``evaluate``'s routing: the magnitude of the
    error bound.  Routed by src itself (the op applied to |src| would move the maxima)."""
    r = _route(inputs, attributes)
    return from_ncx(_scatter(r, np.abs(r.dy)).reshape(r.src_shape), r.nxc)
