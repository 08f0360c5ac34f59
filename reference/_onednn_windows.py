"""The window geometry and layout every oneDNN Graph windowed pool reads the same way (AvgPool, MaxPool and
their backward ops).

kernel, strides, pads_begin, pads_end (required), rounding_type, auto_pad, data_format and - MaxPool only -
dilations, validated as the op pages state them and turned into per-axis windows of the channels-first array.

Dilation convention: the Graph API's ``dilations`` attribute counts from 1 ("a list of 1s (default) means no
dilation"), while the formula both pages share, ``src(oh*SH + kh*(DH + 1) - PH_L, ...)``, is the primitive's,
which counts from 0.  So DH = dilations - 1 and the tap spacing ``DH + 1`` is the attribute's value itself
(docs/spec-notes.md, "oneDNN Graph MaxPool" D6).  AvgPool has no dilations attribute: DH = 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ._entry import require_output
from ._errors import SpecViolation, check_rank, check_unknown_attributes, enum_attr, int_list
from ._windows import Axis, make_axes
from .schema import Attribute

#: The library spelling (None, SAME_UPPER, ...) and the documented lowercase one, as synonyms.
AUTO_PAD = {
    "None": "explicit", "SAME_UPPER": "same_upper", "SAME_LOWER": "same_lower", "VALID": "valid",
    "none": "explicit", "same_upper": "same_upper", "same_lower": "same_lower", "valid": "valid",
}
COMMON_REQUIRED = ("kernel", "strides", "pads_begin", "pads_end")
#: the spellings of auto_pad the specs' attribute table lists
AUTO_PAD_VALUES = ("None", "SAME_UPPER", "SAME_LOWER", "VALID")


def common_attributes(*extra_required: Attribute, dilations: bool) -> tuple[Attribute, ...]:
    """The attributes both oneDNN Graph pooling ops define (required ones first, in the order messages name them)."""
    return (
        *(Attribute(name, "ints", required=True) for name in COMMON_REQUIRED), *extra_required,
        Attribute("rounding_type", "enum", default="floor", values=("floor", "ceil")),
        Attribute("auto_pad", "enum", default="None", values=AUTO_PAD_VALUES),
        *((Attribute("dilations", "ints", default="1 per axis"),) if dilations else ()),
        Attribute("data_format", "enum", default="NXC", values=("NXC", "NCX")),
    )


def ncx_shape(shape: Sequence[int], attributes: dict[str, Any]) -> tuple[tuple[int, ...], bool]:
    """(the input shape channels-first, whether the op's data is channels-last). Rank 3..5 (1-D to 3-D)."""
    fmt = enum_attr(attributes.get("data_format", "NXC"), "data_format", ("NXC", "NCX"))
    shape = tuple(shape)
    check_rank(shape, 3, 5)
    if fmt == "NXC":
        return (shape[0], shape[-1], *shape[1:-1]), True
    return shape, False


def output_shape(ncx: Sequence[int], axes: Sequence[Axis], nxc: bool) -> tuple[int, ...]:
    spatial = tuple(a.out for a in axes)
    return (ncx[0], *spatial, ncx[1]) if nxc else (*ncx[:2], *spatial)


def to_ncx(x: np.ndarray, nxc: bool) -> np.ndarray:
    return np.moveaxis(x, -1, 1) if nxc else x


def from_ncx(y: np.ndarray | None, nxc: bool) -> np.ndarray | None:
    if y is None or not nxc:
        return y
    return np.ascontiguousarray(np.moveaxis(y, 1, -1))


def _window_parameters(op: str, n: int, attributes: dict[str, Any], required: Sequence[str],
                       optional: Sequence[str], dilations: bool) -> tuple[list[int], ...]:
    """(kernel, strides, pads_begin, pads_end, dilations) of ``op`` validated as the pages state them."""
    check_unknown_attributes(attributes, [*required, *optional], op)
    missing = [a for a in required if a not in attributes]
    if missing:
        raise SpecViolation(f"{op}: required attribute(s) {missing} missing")
    kernel = int_list(attributes["kernel"], "kernel", n, 1)
    strides = int_list(attributes["strides"], "strides", n, 1)
    pads_begin = int_list(attributes["pads_begin"], "pads_begin", n, 0)
    pads_end = int_list(attributes["pads_end"], "pads_end", n, 0)
    # "A s64 list containing positive values, a list of 1s (default) means no dilation"
    dil = int_list(attributes.get("dilations", [1] * n), "dilations", n, 1) if dilations else [1] * n
    return kernel, strides, pads_begin, pads_end, dil


def _auto_pad(attributes: dict[str, Any]) -> str:
    return AUTO_PAD[enum_attr(attributes.get("auto_pad", "None"), "auto_pad", tuple(AUTO_PAD))]


def onednn_axes(op: str, shape_ncx: Sequence[int], attributes: dict[str, Any], required: Sequence[str],
                optional: Sequence[str], dilations: bool) -> list[Axis]:
    """Per-axis windows of ``op`` (e.g. "MaxPool-1") on a channels-first shape, or SpecViolation.

    ``required``/``optional``: the op's attribute names; ``dilations``: whether the op defines the attribute.
    """
    kernel, strides, pads_begin, pads_end, dil = _window_parameters(
        op, len(shape_ncx) - 2, attributes, required, optional, dilations)
    rounding = enum_attr(attributes.get("rounding_type", "floor"), "rounding_type", ("floor", "ceil"))
    axes = make_axes(shape_ncx[2:], kernel, strides, dil, pads_begin, pads_end, _auto_pad(attributes),
                     rounding == "ceil")
    require_output(op, axes)
    return axes


def backward_axes(op: str, src_ncx: Sequence[int], windows: Sequence[int], attributes: dict[str, Any],
                  required: Sequence[str], optional: Sequence[str], dilations: bool) -> list[Axis]:
    """The forward op's windows on ``src_ncx``, as many per axis as diff_dst has (``windows``), or SpecViolation.

    The backward pages define no rounding_type, so either rounding of the forward op may have produced diff_dst;
    where a window starts does not depend on the rounding (o*SH - PH_L), only how many there are. So diff_dst's
    extent must be the forward's floor or ceil extent (they coincide under SAME_*), and picks the windows.
    """
    kernel, strides, pads_begin, pads_end, dil = _window_parameters(
        op, len(src_ncx) - 2, attributes, required, optional, dilations)
    auto_pad = _auto_pad(attributes)
    floor = make_axes(src_ncx[2:], kernel, strides, dil, pads_begin, pads_end, auto_pad, False)
    ceil = make_axes(src_ncx[2:], kernel, strides, dil, pads_begin, pads_end, auto_pad, True)
    axes = []
    for i, (f, c, w) in enumerate(zip(floor, ceil, windows)):
        if w < 1 or w not in (f.out, c.out):
            extents = f"{f.out}" if f.out == c.out else f"{f.out} (floor) or {c.out} (ceil)"
            raise SpecViolation(f"{op}: diff_dst spatial axis {i} has {w} elements; the forward op maps src's "
                                f"{f.size} to {extents}")
        axes.append(replace(f, out=w))
    return axes


def window_coverage(axes: Sequence[Axis]) -> int:
    """The most windows one input element lies in (the most terms one diff_src element sums): per axis the most
    windows a coordinate is a tap of; windows are products of per-axis taps, so the maxima multiply."""
    most = 1
    for a in axes:
        taps = a.taps()
        inside = taps[(taps >= 0) & (taps < a.size)]
        most *= int(np.bincount(inside, minlength=1).max(initial=0))
    return most
