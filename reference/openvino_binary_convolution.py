"""OpenVINO BinaryConvolution-1 (convolution/binary-convolution-1.rst): a 2-D convolution of 0/1 data with a u1
kernel, mode xnor-popcount: ``X = XNOR(input_patch, filter)``, ``P = popcount(X)``, ``Output = 2 * P - B``, B the
bits of the patch (C_IN * KY * KX); "value 0 in inputs is interpreted as -1, value 1 as 1", so the output equals
Σ (2x - 1)(2w - 1) over the window. Window geometry (strides, pads, dilations, auto_pad) as Convolution-1's; the pad
area holds pad_value, a bit like the input (0 -> -1, 1 -> 1); another pad_value is no bit: elements whose window
reads padding are unspecified then. Data values other than 0 and 1 are outside T1 ("values 0 or 1"): refused.

The kernel's type is u1, which the harness does not hold: a case gives it as uint8 of values 0 and 1 (one element
per bit), and the OpenVINO builder packs it into a u1 Constant (docs/spec-notes.md, "OpenVINO prior boxes and
YOLO"). Integral arithmetic: judged exactly.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ._convolution import NUMERIC, convolution_axes, ranks
from ._errors import SpecViolation
from .schema import OV_AUTO_PAD, Attribute, Port, Schema, pooled

OP = "BinaryConvolution"
SCHEMA = Schema(
    "openvino", OP, (1,),
    attributes=(
        Attribute("strides", "ints", required=True), Attribute("pads_begin", "ints", required=True),
        Attribute("pads_end", "ints", required=True), Attribute("dilations", "ints", required=True),
        Attribute("mode", "enum", values=("xnor-popcount",), required=True),
        Attribute("pad_value", "float", required=True),
        Attribute("auto_pad", "enum", default="explicit", values=OV_AUTO_PAD),
    ),
    inputs=(Port("data"), Port("kernel", dtype="uint8", dtypes=("uint8",))), outputs=(Port("output"),),
    axes=pooled(2), types=((0, NUMERIC),),
)
VERSIONS = SCHEMA.versions


def _geometry(since: int, x: tuple[int, ...], w: tuple[int, ...], attributes: dict[str, Any]):
    label = f"{OP}-{since}"
    if len(x) != 4:
        raise SpecViolation(f"{label}: the input has rank {len(x)}; the text defines rank 4 [N, C_IN, Y, X]")
    ranks(label, x, w, grouped=False)
    if w[1] != x[1]:
        raise SpecViolation(f"{label}: the kernel's C_IN {w[1]} differs from the input's channels {x[1]}")
    return convolution_axes(SCHEMA, since, x[2:], w[2:], attributes)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 2:
        raise SpecViolation(f"{OP}-{since} takes two inputs (data, kernel), got {len(input_shapes)}")
    x, w = tuple(input_shapes[0]), tuple(input_shapes[1])
    axes = _geometry(since, x, w, attributes)
    return [(x[0], w[0], *(a.out for a in axes))]


def _bits(label: str, what: str, a: np.ndarray) -> np.ndarray:
    wide = a.astype(np.float64)
    if not np.isin(wide, (0.0, 1.0)).all():
        raise SpecViolation(f"{label}: the {what} holds values other than 0 and 1")
    return (2 * wide - 1).astype(np.int64)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"{OP}-{since}"
    (shape,) = output_shapes(since, [a.shape for a in inputs], attributes)
    x, w = inputs
    name = "bfloat16" if x.dtype == np.dtype(ml_dtypes.bfloat16) else str(x.dtype)
    if name not in NUMERIC:
        raise SpecViolation(f"{label}: T1 is a numeric type, got {name}")
    if w.dtype != np.uint8:
        raise SpecViolation(f"{label}: the kernel is u1 (given as uint8 bits), got {w.dtype}")
    xs, ws = _bits(label, "data", x), _bits(label, "kernel", w)
    pad_value = float(np.float32(attributes["pad_value"]))
    pad = int(2 * pad_value - 1) if pad_value in (0.0, 1.0) else None
    axes = _geometry(since, x.shape, w.shape, attributes)
    (ay, ax) = axes
    # each kernel tap at once over every output position: the input padded (pad_value's bit, or 0 and marked
    # unspecified), then one strided view per tap; the sum of the taps' products is the text's xnor-popcount
    (n, c, h, width), (y_size, x_size) = x.shape, w.shape[2:]
    below_y = max(0, ay.pad_begin)
    below_x = max(0, ax.pad_begin)
    span_y = (ay.out - 1) * ay.stride + (y_size - 1) * ay.dilation + 1
    span_x = (ax.out - 1) * ax.stride + (x_size - 1) * ax.dilation + 1
    above_y = max(0, span_y - ay.pad_begin - h)
    above_x = max(0, span_x - ax.pad_begin - width)
    padded = np.full((n, c, h + below_y + above_y, width + below_x + above_x), 0 if pad is None else pad, np.int64)
    padded[:, :, below_y:below_y + h, below_x:below_x + width] = xs
    outside = np.ones(padded.shape[2:], bool)
    outside[below_y:below_y + h, below_x:below_x + width] = False
    out = np.zeros(shape, np.int64)
    reaches_padding = np.zeros((ay.out, ax.out), bool)
    for ky in range(y_size):
        for kx in range(x_size):
            first_y = below_y - ay.pad_begin + ky * ay.dilation
            first_x = below_x - ax.pad_begin + kx * ax.dilation
            rows = slice(first_y, first_y + (ay.out - 1) * ay.stride + 1, ay.stride)
            cols = slice(first_x, first_x + (ax.out - 1) * ax.stride + 1, ax.stride)
            out += np.einsum("ncyx,kc->nkyx", padded[:, :, rows, cols], ws[:, :, ky, kx])
            reaches_padding |= outside[rows, cols]
    unspecified = np.zeros(shape, bool)
    if pad is None:
        unspecified[:, :] = reaches_padding
    y = out.astype(x.dtype)
    if unspecified.any():
        y = np.where(unspecified, 0, y).astype(x.dtype)
    return [y], [unspecified if unspecified.any() else None]
