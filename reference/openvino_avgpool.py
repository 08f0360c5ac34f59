"""OpenVINO AvgPool-1, AvgPool-14 and AvgPool-16 (domain openvino).

  1  kernel, strides, pads_begin, pads_end, exclude-pad (required), rounding_type floor|ceil, auto_pad.
  14 + rounding_type "ceil_torch": ceil rounding, but a last window that would start in the right
     padding is dropped (PyTorch's rule).
  16 + dilations.
Choices (docs/spec-notes.md): the output-shape formula follows the intended floor/ceil((in + pads -
kernel) / stride) + 1, not the published one (erratum); exclude-pad=false counts input and
pads_begin/pads_end elements but not the ceil overhang; windows with nothing to count are unspecified.
Integer inputs (14, 16: "floating point or integer type", no rounding stated): the exact mean rounded to the
nearest integer, ties to even (what OpenVINO's CPU plugin returns); the harness accepts floor or ceil of the exact
mean (V7).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._entry import require_output, windowed_op
from ._errors import (
    SpecViolation,
    bool_attr,
    check_rank,
    check_unknown_attributes,
    enum_attr,
    int_list,
)
from ._windows import Axis, Divisor, make_axes
from .schema import OV_AUTO_PAD, OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema, openvino_rounding_attributes, pooled

OP = "AvgPool"
CEIL_TORCH, DILATIONS = 14, 16
SCHEMA = Schema(
    "openvino", OP, (1, CEIL_TORCH, DILATIONS),
    attributes=(
        Attribute("kernel", "ints", required=True),
        Attribute("strides", "ints", required=True),
        Attribute("pads_begin", "ints", required=True),
        Attribute("pads_end", "ints", required=True),
        Attribute("exclude-pad", "bool", required=True),
        *openvino_rounding_attributes(CEIL_TORCH),
        Attribute("dilations", "ints", default="1 per axis", since=DILATIONS),
    ),
    inputs=(Port("data"),), outputs=(Port("output"),),
    # AvgPool-1 has no type section ("T: floating-point" by convention); OpenVINO's CPU plugin runs these.
    # 14 and 16 also allow integer types, judged by floor or ceil of the exact mean (V7).
    types=((0, OV_FLOATS), (CEIL_TORCH, (*OV_FLOATS, *OV_INTEGERS))),
    axes=pooled(),
)
VERSIONS = SCHEMA.versions
REQUIRED = SCHEMA.required_names(1)  # the same at every version; in the order messages name them


def integer_dtypes(since: int) -> tuple[str, ...]:
    """14 and 16: "T: floating point or integer type" (no rounding stated: docs/spec-notes.md V7)."""
    return tuple(name for name in SCHEMA.supported_dtypes(since) if name in OV_INTEGERS)


def _geometry(since: int, shape: Sequence[int], attributes: dict[str, Any]) -> tuple[list[Axis], Divisor]:
    op = f"{OP}-{since}"
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), op)
    missing = [a for a in REQUIRED if a not in attributes]
    if missing:
        raise SpecViolation(f"{op}: required attribute(s) {missing} missing")
    check_rank(shape, 3, 5)
    n = len(shape) - 2
    kernel = int_list(attributes["kernel"], "kernel", n, 1)
    # The spec says strides "starting from 0"; a zero stride has no meaning (no output extent).
    strides = int_list(attributes["strides"], "strides", n, 1)
    auto_pad = enum_attr(attributes.get("auto_pad", "explicit"), "auto_pad", OV_AUTO_PAD)
    # pads_begin/pads_end are required even when auto_pad makes them irrelevant; still validated.
    pads_begin = int_list(attributes["pads_begin"], "pads_begin", n, 0)
    pads_end = int_list(attributes["pads_end"], "pads_end", n, 0)
    exclude = bool_attr(attributes["exclude-pad"], "exclude-pad")
    roundings = SCHEMA.attribute("rounding_type", since).values
    rounding = enum_attr(attributes.get("rounding_type", "floor"), "rounding_type", roundings)
    dilations = int_list(attributes.get("dilations", [1] * n), "dilations", n, 1)
    axes = make_axes(
        shape[2:], kernel, strides, dilations, pads_begin, pads_end, auto_pad,
        ceil=rounding != "floor", torch_ceil=rounding == "ceil_torch",
    )
    require_output(op, axes)
    return axes, Divisor.INPUT if exclude else Divisor.PADDED


output_shapes, window_elements, evaluate = windowed_op(OP, _geometry, integer_since=CEIL_TORCH)
