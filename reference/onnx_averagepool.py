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

from ._entry import windowed_op
from ._errors import flag_attr
from ._onnx_windows import onnx_axes
from ._windows import Axis, Divisor
from .schema import Attribute, Port, Schema, onnx_float_types, onnx_window_attributes, pooled

OP = "AveragePool"
SCHEMA = Schema(
    "ai.onnx", OP, (1, 7, 10, 11, 19, 22),
    attributes=(
        *onnx_window_attributes(dilations_since=19),
        Attribute("count_include_pad", "flag", default=0, values=(0, 1), since=7),
        Attribute("ceil_mode", "flag", default=0, values=(0, 1), since=10),
    ),
    inputs=(Port("X"),), outputs=(Port("Y"),),
    types=onnx_float_types(),
    axes=pooled(),
)
VERSIONS = SCHEMA.versions


def _geometry(since: int, shape: Sequence[int], attributes: dict[str, Any]) -> tuple[list[Axis], Divisor]:
    axes = onnx_axes(f"{OP}-{since}", since, shape, attributes, SCHEMA.attribute_names(since))
    include_pad = flag_attr(attributes.get("count_include_pad", 0), "count_include_pad")
    return axes, Divisor.PADDED if include_pad else Divisor.INPUT


output_shapes, window_elements, evaluate = windowed_op(OP, _geometry)
