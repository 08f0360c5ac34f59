"""ONNX AveragePool, since versions 1, 7, 10, 11, 19 and 22 (domain ai.onnx).

Version differences (see docs/spec-notes.md for the evidence behind each choice):
  1  kernel_shape, strides, pads, auto_pad; the divisor excludes padding ("divided by the number of
     elements exclude pad").
  7  + count_include_pad (default 0).
  10 + ceil_mode (default 0).
  11 documentation only (strides default to 1, SAME wording) - same semantics as 10.
  19 + dilations.
  22 + bfloat16; in ceil mode a last window that would start in the right padding is dropped.
All versions: the ceil-mode overhang past the padded input is never counted by count_include_pad,
and VALID honours ceil_mode (the VALID formula in the text ignores it: treated as an erratum).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._entry import require_output, windowed_op
from ._errors import (
    SpecViolation,
    check_rank,
    check_unknown_attributes,
    enum_attr,
    flag_attr,
    int_list,
)
from ._windows import Axis, Divisor, make_axes

OP = "AveragePool"
VERSIONS = (1, 7, 10, 11, 19, 22)
AUTO_PAD = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")


def supported_dtypes(since: int) -> tuple[str, ...]:
    base = ("float16", "float32", "float64")
    return ("bfloat16", *base) if since >= 22 else base


def _allowed_attributes(since: int) -> list[str]:
    names = ["auto_pad", "kernel_shape", "pads", "strides"]
    if since >= 7:
        names.append("count_include_pad")
    if since >= 10:
        names.append("ceil_mode")
    if since >= 19:
        names.append("dilations")
    return names


def _geometry(since: int, shape: Sequence[int], attributes: dict[str, Any]) -> tuple[list[Axis], Divisor]:
    op = f"{OP}-{since}"
    check_unknown_attributes(attributes, _allowed_attributes(since), op)
    check_rank(shape, 3, None)
    if "kernel_shape" not in attributes:
        raise SpecViolation(f"{op}: kernel_shape is required")
    n = len(shape) - 2
    kernel = int_list(attributes["kernel_shape"], "kernel_shape", n, 1)
    # strides: v1-v10 state no default; 11+ say "defaults to 1" - ONNX shape inference uses 1 for all.
    strides = int_list(attributes.get("strides", [1] * n), "strides", n, 1)
    dilations = int_list(attributes.get("dilations", [1] * n), "dilations", n, 1)
    auto_pad = enum_attr(attributes.get("auto_pad", "NOTSET"), "auto_pad", AUTO_PAD)
    if "pads" in attributes and auto_pad != "NOTSET":
        raise SpecViolation(f"{op}: pads cannot be used simultaneously with auto_pad={auto_pad}")
    pads = int_list(attributes.get("pads", [0] * (2 * n)), "pads", 2 * n, 0)
    include_pad = flag_attr(attributes.get("count_include_pad", 0), "count_include_pad")
    ceil = flag_attr(attributes.get("ceil_mode", 0), "ceil_mode")
    mode = "explicit" if auto_pad == "NOTSET" else auto_pad.lower()
    axes = make_axes(shape[2:], kernel, strides, dilations, pads[:n], pads[n:], mode, ceil, torch_ceil=since >= 22)
    require_output(op, axes)
    return axes, Divisor.PADDED if include_pad else Divisor.INPUT


output_shapes, window_elements, evaluate = windowed_op(OP, _geometry)
