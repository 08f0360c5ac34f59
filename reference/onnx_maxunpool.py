"""ONNX MaxUnpool, since versions 9, 11 and 22 (domain ai.onnx).

Inputs X (the pooled values), I (int64, same shape: the flat index of each value, MaxPool's Indices with
storage_order 0: row-major over the whole tensor, N and C included) and the optional output_shape (int64, the
output's full shape). The output is zeros except at the positions I names, which receive the X values: every
output element is an exact copy (no arithmetic), so outputs are judged exactly.

Version differences (docs/spec-notes.md, "MaxUnpool (ONNX)"): 9 states no default for strides (1, as shape
inference and every runtime), 11 says "defaults to 1"; 22 adds bfloat16. Otherwise the three texts are identical.

The default output shape (onnx shape inference, not the doc text): N, C, then per spatial axis
``(in - 1) * stride + kernel - pad_begin - pad_end``, which must be >= 1.

Choices for what the text leaves open:
  * output_shape given: the text does not say which layout the indices address. Two readings, both computed
    (``readings``): "default_layout" - the indices address the default shape, which is then placed at the start of
    every axis of output_shape (onnx.reference, and the expected output of onnx's node test
    test_maxunpool_export_with_output_shape); "output_layout" - the indices address the output_shape tensor itself,
    as MaxPool's Indices of an input of that shape would (onnxruntime). ``evaluate`` marks unspecified every element
    where they differ. An index past the default shape but inside output_shape leaves only "output_layout".
  * output_shape must have rank(X) entries, X's N and C, and spatial extents >= the default ones (the
    "disambiguation" the text describes picks one of the larger inputs MaxPool maps to X's shape): else
    SpecViolation. Pads stay validated (>= 0) even where output_shape makes them "ignored".
  * An index outside [0, output element count) is a SpecViolation: the text gives the range.
  * Several X elements naming one position: equal values (overlapping MaxPool windows sharing a maximum) give that
    value; different values leave the position unspecified (runtimes keep the last write, an order the text never
    sets).
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

from ._errors import SpecViolation, check_float_input, check_rank, check_unknown_attributes, int_list
from ._readings import Outputs, merge
from .schema import Attribute, Port, Schema, onnx_float_types, pooled

OP = "MaxUnpool"
SCHEMA = Schema(
    "ai.onnx", OP, (9, 11, 22),
    attributes=(
        Attribute("kernel_shape", "ints", required=True),
        Attribute("strides", "ints", default="1 per axis"),
        Attribute("pads", "ints", default="0 per axis begin and end"),
    ),
    inputs=(Port("X"), Port("I", dtype="int64"), Port("output_shape", dtype="int64", optional=True)),
    outputs=(Port("output"),),
    types=onnx_float_types(),
    axes=pooled(),
)
VERSIONS = SCHEMA.versions
#: the readings ``readings`` returns, in order (the first gives ``evaluate``'s values)
READINGS = ("default_layout", "output_layout")


def _default_shape(since: int, shape: tuple[int, ...], attributes: dict[str, Any]) -> tuple[int, ...]:
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), f"{OP}-{since}")
    check_rank(shape, 3, None)
    if "kernel_shape" not in attributes:
        raise SpecViolation(f"{OP}-{since}: kernel_shape is required")
    n = len(shape) - 2
    kernel = int_list(attributes["kernel_shape"], "kernel_shape", n, 1)
    strides = int_list(attributes.get("strides", [1] * n), "strides", n, 1)
    pads = int_list(attributes.get("pads", [0] * (2 * n)), "pads", 2 * n, 0)
    dims = [(shape[2 + a] - 1) * strides[a] + kernel[a] - pads[a] - pads[n + a] for a in range(n)]
    if any(d < 1 for d in dims):
        raise SpecViolation(f"{OP}-{since}: the default output extents {dims} are not all positive (pads too large)")
    return (shape[0], shape[1], *dims)


def _shapes(since: int, x_shape: tuple[int, ...], attributes: dict[str, Any],
            output_shape: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(default shape, output shape); output_shape None: the default."""
    default = _default_shape(since, x_shape, attributes)
    if output_shape is None:
        return default, default
    if not isinstance(output_shape, np.ndarray) or output_shape.dtype != np.int64:
        raise SpecViolation(f"{OP}-{since}: output_shape must be an int64 tensor")
    if output_shape.shape != (len(x_shape),):
        raise SpecViolation(f"{OP}-{since}: output_shape must be 1-D with {len(x_shape)} values (the rank of X), "
                            f"got shape {output_shape.shape}")
    out = tuple(int(v) for v in output_shape)
    if out[:2] != default[:2]:
        raise SpecViolation(f"{OP}-{since}: output_shape {list(out)} must keep X's N and C {list(default[:2])}")
    if any(o < d for o, d in zip(out[2:], default[2:])):
        raise SpecViolation(f"{OP}-{since}: output_shape {list(out)} is smaller than the default {list(default)}")
    return default, out


def _check_inputs(since: int, inputs: list[np.ndarray]) -> None:
    if len(inputs) not in (2, 3):
        raise SpecViolation(f"{OP}-{since} takes 2 or 3 inputs (X, I[, output_shape]), got {len(inputs)}")
    x, indices = inputs[0], inputs[1]
    check_float_input(x)
    name = "bfloat16" if x.dtype == np.dtype(ml_dtypes.bfloat16) else str(x.dtype)
    allowed = SCHEMA.supported_dtypes(since)
    if name not in allowed:
        raise SpecViolation(f"{OP}-{since}: X dtype {name} is not in the type constraint {allowed}")
    if not isinstance(indices, np.ndarray) or indices.dtype != np.int64:
        raise SpecViolation(f"{OP}-{since}: I must be an int64 tensor")
    if indices.shape != x.shape:
        raise SpecViolation(f"{OP}-{since}: I has shape {indices.shape}; 'Dimensions must be the same as input "
                            f"tensor X' {x.shape}")


def _scatter(x: np.ndarray, flat: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Zeros of ``shape`` with x written at the flat positions; mask: positions written with different values."""
    size = math.prod(shape)
    values = x.reshape(-1).astype(np.float64)  # exact for every float dtype of the constraint
    y = np.zeros(size, dtype=x.dtype)
    y[flat] = x.reshape(-1)
    # A position written twice is fine when every write agrees (== , or NaN twice): compare each write with the
    # value that ended up there.
    landed = y.astype(np.float64)[flat]
    clash = ~((values == landed) | (np.isnan(values) & np.isnan(landed)))
    mask = np.zeros(size, dtype=bool)
    mask[flat[clash]] = True
    y[mask] = np.nan
    return y.reshape(shape), mask.reshape(shape)


def readings(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Outputs]:
    """Every reading the text allows, by name (READINGS), each ``([output], [unspecified mask or None])``."""
    _check_inputs(since, inputs)
    x, indices = inputs[0], inputs[1]
    default, out = _shapes(since, x.shape, attributes, inputs[2] if len(inputs) == 3 else None)
    flat = indices.reshape(-1)
    size = math.prod(out)
    if flat.size and (flat.min() < 0 or flat.max() >= size):
        bad = flat[(flat < 0) | (flat >= size)][0]
        raise SpecViolation(f"{OP}-{since}: index {int(bad)} is outside [0, {size}), the output's elements")
    found: dict[str, Outputs] = {}
    if not flat.size or flat.max() < math.prod(default):
        y, mask = _scatter(x, flat, default)
        if out != default:  # the default-shape tensor at the start of every axis, zeros after it
            region = tuple(slice(0, d) for d in default)
            y_out, mask_out = np.zeros(out, dtype=x.dtype), np.zeros(out, dtype=bool)
            y_out[region], mask_out[region] = y, mask
            y, mask = y_out, mask_out
        found["default_layout"] = ([y], [mask if mask.any() else None])
    y, mask = _scatter(x, flat, out)
    found["output_layout"] = ([y], [mask if mask.any() else None])
    return found


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """[output] and its unspecified mask: where the readings disagree, or a position takes different values."""
    return merge(readings(since, inputs, attributes))


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    """[output]; with three inputs the value of output_shape is needed (``input_values[2]``)."""
    if len(input_shapes) not in (2, 3):
        raise SpecViolation(f"{OP}-{since} takes 2 or 3 inputs, got {len(input_shapes)}")
    x_shape = tuple(input_shapes[0])
    if tuple(input_shapes[1]) != x_shape:
        raise SpecViolation(f"{OP}-{since}: I has shape {tuple(input_shapes[1])}, X {x_shape}: they must match")
    value = None
    if len(input_shapes) == 3:
        value = (input_values or {}).get(2)
        if value is None:
            raise ValueError(f"{OP}-{since}: the value of input 2 (output_shape) is needed to infer the output shape")
    return [_shapes(since, x_shape, attributes, value)[1]]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    """1: every output element is a copy of one input element (or 0): no arithmetic, judged exactly."""
    output_shapes(since, input_shapes, attributes, input_values)
    return 1
