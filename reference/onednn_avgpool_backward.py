"""oneDNN Graph AvgPoolBackward (domain onednn, version 1).

diff_src is the gradient of AvgPool with the same attributes: every element of diff_dst spreads over its window,

    diff_src(n, c, ih, iw) = sum over (oh, ow, kh, kw) with oh*SH + kh - PH_L = ih, ow*SW + kw - PW_L = iw
                             of diff_dst(n, c, oh, ow) / DENOM(oh, ow)

with AvgPool's DENOM: KH*KW with exclude_pad=false (also for a ceil window hanging past the padded input, as the
forward text says), the window's overlap with the image with exclude_pad=true.  A window with no input element
reaches no diff_src element, so nothing here is unspecified.  Accumulated in float64, rounded once.

Inputs: diff_dst, and src_shape (s32, the forward input's shape in the data_format layout) as input 1 or as the
attribute of that name; "if both provided, src_shape input will precede over src_shape attribute".  The page
defines no rounding_type: diff_dst's extent picks the windows (the forward's floor or ceil extent,
_onednn_windows.backward_axes).  Choices and evidence: docs/spec-notes.md, "oneDNN Graph AvgPoolBackward".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._errors import SpecViolation, bool_attr, check_float_input, int_list
from ._onednn_windows import (
    AUTO_PAD_VALUES,
    COMMON_REQUIRED,
    backward_axes,
    from_ncx,
    ncx_shape,
    to_ncx,
    window_coverage,
)
from ._windows import Axis, Divisor, axis_counts, to_dtype
from .schema import ONEDNN_TYPES, Attribute, Port, Schema, pooled

__all__ = ["OP", "SCHEMA", "VERSIONS", "evaluate", "output_shapes", "scatter_windows",
           "window_elements"]

OP = "AvgPoolBackward"
SCHEMA = Schema(
    "onednn", OP, (1,),
    attributes=(
        *(Attribute(name, "ints", required=True) for name in COMMON_REQUIRED),
        Attribute("exclude_pad", "bool", required=True),
        Attribute("auto_pad", "enum", default="None", values=AUTO_PAD_VALUES),
        Attribute("data_format", "enum", default="NXC", values=("NXC", "NCX")),
        Attribute("src_shape", "ints"),  # optional: input 1 or this attribute
    ),
    inputs=(Port("diff_dst"), Port("src_shape", dtypes=("int32",))),
    outputs=(Port("diff_src"),),
    types=((0, ONEDNN_TYPES),),
    axes=pooled(),
)
VERSIONS = SCHEMA.versions
REQUIRED = SCHEMA.required_names(1)
OPTIONAL = tuple(sorted(SCHEMA.attribute_names(1) - set(REQUIRED)))


def _src_shape(rank: int, attributes: dict[str, Any], given: np.ndarray | None) -> tuple[int, ...]:
    """The forward input's shape: input 1 when present (it "will precede"), else the attribute."""
    if given is not None:
        if not isinstance(given, np.ndarray) or given.dtype != np.int32 or given.ndim != 1:
            raise SpecViolation(f"{OP}-1: input 1 (src_shape) must be a 1-D s32 tensor, got "
                                f"{getattr(given, 'dtype', type(given).__name__)} {getattr(given, 'shape', '')}")
        value: Any = [int(v) for v in given]
    elif "src_shape" in attributes:
        value = attributes["src_shape"]
    else:
        raise SpecViolation(f"{OP}-1: src_shape is neither input 1 nor an attribute (the page requires one)")
    # "A s64 list containing positive values", one per dimension of diff_dst (the same rank as diff_src)
    if isinstance(value, np.ndarray):
        value = value.tolist()
    return tuple(int_list(value, "src_shape", rank, 1))


def _geometry(src_shape: Sequence[int], dst_shape: Sequence[int], attributes: dict[str, Any]
              ) -> tuple[tuple[int, ...], bool, list[Axis], Divisor]:
    src_ncx, nxc = ncx_shape(src_shape, attributes)
    dst_ncx, _ = ncx_shape(dst_shape, attributes)
    if src_ncx[:2] != dst_ncx[:2]:
        raise SpecViolation(f"{OP}-1: diff_dst {tuple(dst_shape)} and src_shape {tuple(src_shape)} differ in "
                            "batch or channels")
    axes = backward_axes(f"{OP}-1", src_ncx, dst_ncx[2:], attributes, REQUIRED, OPTIONAL, dilations=False)
    exclude = bool_attr(attributes["exclude_pad"], "exclude_pad")
    return src_ncx, nxc, axes, Divisor.INPUT if exclude else Divisor.KERNEL


def _split(inputs: Sequence[Any]) -> tuple[Any, Any]:
    if len(inputs) not in (1, 2):
        raise SpecViolation(f"{OP}-1 takes diff_dst and optionally src_shape, got {len(inputs)} inputs")
    return inputs[0], (inputs[1] if len(inputs) == 2 else None)


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
    input_values: dict[int, np.ndarray] | None = None,
) -> list[tuple[int, ...]]:
    """diff_src has src_shape; ``input_values[1]`` is needed when src_shape is input 1."""
    dst_shape, given_shape = _split(input_shapes)
    given = None
    if given_shape is not None:
        given = (input_values or {}).get(1)
        if given is None:
            raise SpecViolation(f"{OP}-1: the output shape is the value of input 1 (src_shape), not given")
    src_shape = _src_shape(len(dst_shape), attributes, given)
    _geometry(src_shape, dst_shape, attributes)
    return [src_shape]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
    input_values: dict[int, np.ndarray] | None = None,
) -> int:
    """The most diff_dst terms one diff_src element sums (K of the error bound)."""
    (src_shape,) = output_shapes(since, input_shapes, attributes, input_values)
    _, _, axes, _ = _geometry(src_shape, input_shapes[0], attributes)
    return window_coverage(axes)


def scatter_windows(g: np.ndarray, axes: Sequence[Axis]) -> np.ndarray:
    """The adjoint of the window sum: every element of the float64 N, C, windows... array ``g`` added to each input
    position its window covers (taps outside the input dropped); returns N, C, sizes... in float64.

    Windows are products of per-axis tap sets, so the spread factors per axis: one axis at a time, a loop over
    kernel taps adding strided slices (never over elements)."""
    lead = g.ndim - len(axes)
    for i, axis in enumerate(axes):
        ax = lead + i
        first = -axis.pad_begin
        last = (axis.out - 1) * axis.stride - axis.pad_begin + axis.extent  # one past the last tap
        lo, hi = min(first, 0), max(last, axis.size)
        shape = list(g.shape)
        shape[ax] = hi - lo
        buf = np.zeros(shape, dtype=np.float64)
        index: list[slice] = [slice(None)] * g.ndim
        for j in range(axis.kernel):
            s = first + j * axis.dilation - lo
            index[ax] = slice(s, s + (axis.out - 1) * axis.stride + 1, axis.stride)
            buf[tuple(index)] += g
        index[ax] = slice(-lo, -lo + axis.size)
        g = buf[tuple(index)]
    return g


def _divisor(axes: Sequence[Axis], divisor: Divisor) -> np.ndarray:
    """DENOM per window, shaped (windows...): per-axis counts multiply (window = product of per-axis taps)."""
    div = np.ones([1] * len(axes), dtype=np.int64)
    for i, axis in enumerate(axes):
        _, d = axis_counts(axis, divisor)
        div = div * d.reshape([axis.out if k == i else 1 for k in range(len(axes))])
    return div


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    dy, given = _split(inputs)
    check_float_input(dy, "input 0 (diff_dst)")
    src_shape = _src_shape(dy.ndim, attributes, given)
    _, nxc, axes, divisor = _geometry(src_shape, dy.shape, attributes)
    div = _divisor(axes, divisor)
    with np.errstate(divide="ignore", invalid="ignore"):
        # DENOM = 0 only for a window with no input element (exclude_pad): it reaches no diff_src element
        g = np.where(div > 0, to_ncx(dy, nxc).astype(np.float64) / np.maximum(div, 1), 0.0)
    dx = scatter_windows(g, axes)
    return [from_ncx(to_dtype(dx, dy.dtype), nxc)], [None]
