"""The window geometry every ONNX windowed pool reads the same way (AveragePool, MaxPool, LpPool).

kernel_shape (required), strides, dilations, pads, auto_pad and ceil_mode, validated as the texts state them,
turned into per-axis windows; the opset-22 rule (a ceil-mode window that would start in the right padding is
dropped) applies from since-version 22.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._entry import require_output
from ._errors import SpecViolation, check_rank, check_unknown_attributes, enum_attr, flag_attr, int_list
from ._windows import Axis, make_axes
from .schema import ONNX_AUTO_PAD


def onnx_axes(op: str, since: int, shape: Sequence[int], attributes: dict[str, Any],
              allowed: Sequence[str]) -> list[Axis]:
    """Per-axis windows of ``op`` (e.g. "MaxPool-12"), or SpecViolation; ``allowed``: the version's attributes."""
    check_unknown_attributes(attributes, allowed, op)
    check_rank(shape, 3, None)
    if "kernel_shape" not in attributes:
        raise SpecViolation(f"{op}: kernel_shape is required")
    n = len(shape) - 2
    kernel = int_list(attributes["kernel_shape"], "kernel_shape", n, 1)
    # strides: early versions state no default, later ones "defaults to 1" - ONNX shape inference uses 1 for all;
    # dilations likewise.
    strides = int_list(attributes.get("strides", [1] * n), "strides", n, 1)
    dilations = int_list(attributes.get("dilations", [1] * n), "dilations", n, 1)
    auto_pad = enum_attr(attributes.get("auto_pad", "NOTSET"), "auto_pad", ONNX_AUTO_PAD)
    if "pads" in attributes and auto_pad != "NOTSET":
        raise SpecViolation(f"{op}: pads cannot be used simultaneously with auto_pad={auto_pad}")
    # pads "can take any value greater than or equal to 0": pads >= kernel are allowed (windows in padding).
    pads = int_list(attributes.get("pads", [0] * (2 * n)), "pads", 2 * n, 0)
    ceil = flag_attr(attributes.get("ceil_mode", 0), "ceil_mode")
    mode = "explicit" if auto_pad == "NOTSET" else auto_pad.lower()
    axes = make_axes(shape[2:], kernel, strides, dilations, pads[:n], pads[n:], mode, ceil, torch_ceil=since >= 22)
    require_output(op, axes)
    return axes
