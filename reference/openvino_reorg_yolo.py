"""OpenVINO ReorgYolo-1 (detection/reorg-yolo-1.rst): [N, C, H, W] to [N, C*stride*stride, H/stride, W/stride]
("reorganizes input tensor taking into account strides"), any type.

The text gives the shapes and nothing of which input element lands where: YOLO9000's passthrough layer (the cited
paper) "stacks adjacent features into different channels", which DepthToSpace-style block orders and Darknet's
reorg do in three different element orders. The reference checks the shapes and what the text forbids and leaves
every element unspecified (docs/spec-notes.md, "OpenVINO regions and detection").
SpecViolation: not 4-D, H or W not divisible by stride, C < stride * stride, stride < 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation, check_unknown_attributes
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema, pooled

OP = "ReorgYolo"
SCHEMA = Schema("openvino", OP, (1,), attributes=(Attribute("stride", "int", required=True),),
                inputs=(Port("input"),), outputs=(Port("output"),), axes=pooled(2),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _stride(since: int, attributes: dict[str, Any]) -> int:
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), f"{OP}-{since}")
    if "stride" not in attributes:
        raise SpecViolation(f"{OP}-{since}: stride is required")
    value = attributes["stride"]
    if isinstance(value, list | tuple) and len(value) == 1:  # an IR's "2" read as one value
        value = value[0]
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise SpecViolation(f"{OP}-{since}: stride={value!r} must be a positive integer")
    return int(value)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 1:
        raise SpecViolation(f"{OP}-{since} takes one input, got {len(input_shapes)}")
    s = _stride(since, attributes)
    shape = tuple(input_shapes[0])
    if len(shape) != 4:
        raise SpecViolation(f"{OP}-{since}: the input has rank {len(shape)}; the text defines [N, C, H, W]")
    n, c, h, w = shape
    if h % s or w % s or c < s * s:
        raise SpecViolation(f"{OP}-{since}: [N, C, H, W] = {list(shape)}: H and W must be divisible by stride {s} "
                            f"and C >= {s * s}")
    return [(n, c * s * s, h // s, w // s)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    (shape,) = output_shapes(since, [x.shape for x in inputs], attributes)
    x = inputs[0]
    name = "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)
    if name not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"{OP}-{since}: type {name} is not in the type constraint")
    out = np.zeros(shape, x.dtype)
    if x.dtype.kind == "f" or name == "bfloat16":
        out[...] = np.nan
    return [out], [np.ones(shape, bool)]
