"""oneDNN Graph AvgPool (domain onednn, version 1).

dst = sum over kh, kw of src(oh*SH + kh*(DH+1) - PH_L, ...) / DENOM.  The op has no dilations
attribute, so the formula's DH, DW are 0 (oneDNN counts dilation from 0).  exclude_pad=false:
DENOM = KH*KW, the full kernel, also for windows hanging past the padded input in ceil mode (the text
is explicit; the library refuses that combination).  exclude_pad=true: DENOM = overlap with the image;
an empty overlap is unspecified.  auto_pad accepts the library spelling (None, SAME_UPPER, SAME_LOWER,
VALID) and the documented lowercase one (none, same_upper, ...) as synonyms.  data_format NXC (default)
is channels-last [N, spatial..., C]; NCX is [N, C, spatial...].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._entry import require_output
from ._errors import (
    SpecViolation,
    bool_attr,
    check_float_input,
    check_rank,
    check_unknown_attributes,
    enum_attr,
    int_list,
)
from ._windows import Axis, Divisor, make_axes, max_window_elements, pool_average

OP = "AvgPool"
VERSIONS = (1,)
REQUIRED = ("kernel", "strides", "pads_begin", "pads_end", "exclude_pad")
AUTO_PAD = {
    "None": "explicit", "SAME_UPPER": "same_upper", "SAME_LOWER": "same_lower", "VALID": "valid",
    "none": "explicit", "same_upper": "same_upper", "same_lower": "same_lower", "valid": "valid",
}


def supported_dtypes(since: int) -> tuple[str, ...]:
    return ("float32", "bfloat16", "float16")  # "Supported data types": f32, bf16, f16


def _ncx_shape(shape: Sequence[int], attributes: dict[str, Any]) -> tuple[tuple[int, ...], bool]:
    fmt = enum_attr(attributes.get("data_format", "NXC"), "data_format", ("NXC", "NCX"))
    shape = tuple(shape)
    check_rank(shape, 3, 5)
    if fmt == "NXC":
        return (shape[0], shape[-1], *shape[1:-1]), True
    return shape, False


def _geometry(shape_ncx: Sequence[int], attributes: dict[str, Any]) -> tuple[list[Axis], Divisor]:
    op = f"{OP}-1"
    check_unknown_attributes(attributes, [*REQUIRED, "rounding_type", "auto_pad", "data_format"], op)
    missing = [a for a in REQUIRED if a not in attributes]
    if missing:
        raise SpecViolation(f"{op}: required attribute(s) {missing} missing")
    n = len(shape_ncx) - 2
    kernel = int_list(attributes["kernel"], "kernel", n, 1)
    strides = int_list(attributes["strides"], "strides", n, 1)
    pads_begin = int_list(attributes["pads_begin"], "pads_begin", n, 0)
    pads_end = int_list(attributes["pads_end"], "pads_end", n, 0)
    exclude = bool_attr(attributes["exclude_pad"], "exclude_pad")
    rounding = enum_attr(attributes.get("rounding_type", "floor"), "rounding_type", ("floor", "ceil"))
    auto_pad = AUTO_PAD[enum_attr(attributes.get("auto_pad", "None"), "auto_pad", tuple(AUTO_PAD))]
    axes = make_axes(shape_ncx[2:], kernel, strides, [1] * n, pads_begin, pads_end, auto_pad, rounding == "ceil")
    require_output(op, axes)
    return axes, Divisor.INPUT if exclude else Divisor.KERNEL


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    ncx, nxc = _ncx_shape(input_shapes[0], attributes)
    axes, _ = _geometry(ncx, attributes)
    spatial = tuple(a.out for a in axes)
    return [(ncx[0], *spatial, ncx[1]) if nxc else (*ncx[:2], *spatial)]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    ncx, _ = _ncx_shape(input_shapes[0], attributes)
    axes, _ = _geometry(ncx, attributes)
    return max_window_elements(axes)


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 1:
        raise SpecViolation(f"{OP}-1 takes exactly one input, got {len(inputs)}")
    x = inputs[0]
    check_float_input(x)
    ncx, nxc = _ncx_shape(x.shape, attributes)
    axes, divisor = _geometry(ncx, attributes)
    if nxc:  # compute channels-first, hand back channels-last
        x = np.moveaxis(x, -1, 1)
    y, mask = pool_average(x, axes, divisor)
    if nxc:
        y = np.ascontiguousarray(np.moveaxis(y, 1, -1))
        mask = None if mask is None else np.ascontiguousarray(np.moveaxis(mask, 1, -1))
    return [y], [mask]
