"""OpenVINO FakeConvert-13: data quantised to an 8-bit float and back (fake-convert-13.rst):

    data = data * scale - shift
    ConvertLike(Convert(data, destination_type), data)
    data = (data + shift) / scale

``destination_type`` f8e4m3 (1-4-3, max 448, no infinity: E4M3FN of the paper the page cites) or f8e5m2 (1-5-2, max
57344); T_F float16, bfloat16, float32; scale and shift (optional, scale's shape) numpy-broadcast onto data.

The value: v = data·scale − shift in float64 (exact for the types of T_F but a last rounding), Convert to the
8-bit type round-to-nearest-even (Convert's rule for floats), then (q + shift)/scale rounded once to T. Unspecified:
an element whose v lies within the rounding of its computation in T (2 ulps of T at |data·scale| + |shift|) of a
midpoint between two 8-bit values (a conforming T computation may land on either side), and one whose v lies
past the 8-bit type's largest finite value (the text does not say whether Convert saturates, gives NaN or inf).
The rest: 3 ulps of T at (|q| + |shift|)/|scale| (the sum, the division, and a reciprocal where one is used).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import inputs_count
from ._pnorm import round_to
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "FakeConvert", (13,),
    attributes=(Attribute("destination_type", "enum", values=("f8e4m3", "f8e5m2"), required=True),),
    inputs=(Port("data"), Port("scale"), Port("shift", optional=True)),
    outputs=(Port("output"),),
    types=((0, ("float32", "float16", "bfloat16")),),
)
VERSIONS = SCHEMA.versions

F8 = {"f8e4m3": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2}


def _checked(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"FakeConvert-{since}"
    inputs_count(shapes, (2, 3), label)
    found = attributes_of(SCHEMA, since, attributes)
    data = tuple(shapes[0])
    for what, shape in zip(("scale", "shift"), shapes[1:]):
        try:
            grown = np.broadcast_shapes(data, tuple(shape))
        except ValueError:
            grown = None
        if grown != data:
            raise SpecViolation(f"{label}: {what} of shape {list(shape)} does not broadcast onto data {list(data)}")
    if len(shapes) == 3 and tuple(shapes[2]) != tuple(shapes[1]):
        raise SpecViolation(f"{label}: shift's shape {list(shapes[2])} must match scale's {list(shapes[1])}")
    return found


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _checked(since, input_shapes, attributes)
    return [tuple(input_shapes[0])]


def _parts(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> tuple:
    label = f"FakeConvert-{since}"
    found = _checked(since, [np.shape(x) for x in inputs], attributes)
    x = np.asarray(inputs[0])
    allowed = SCHEMA.supported_dtypes(since)
    for name, t in zip(("data", "scale", "shift"), inputs):
        if np.asarray(t).dtype.name not in allowed or np.asarray(t).dtype != x.dtype:
            raise SpecViolation(f"{label}: {name} of type {np.asarray(t).dtype} (T_F, data's type {x.dtype})")
    data = x.astype(np.float64)
    scale = np.broadcast_to(np.asarray(inputs[1], np.float64), x.shape)
    shift = np.broadcast_to(np.asarray(inputs[2], np.float64) if len(inputs) == 3 else np.zeros(()), x.shape)
    f8 = F8[found["destination_type"]]
    v = data * scale - shift
    q = v.astype(np.float32).astype(f8).astype(np.float64)  # nearest even (v's float32 rounding: see the mask)
    u = 2.0 ** -8 if x.dtype.name == "bfloat16" else float(np.finfo(x.dtype).eps) / 2
    delta = 2 * 2 * u * (np.abs(data * scale) + np.abs(shift))  # 2 ulps of T (ulp = 2u)
    with np.errstate(invalid="ignore", over="ignore"):
        low = (v - delta).astype(np.float32).astype(f8).astype(np.float64)
        high = (v + delta).astype(np.float32).astype(f8).astype(np.float64)
    biggest = float(ml_dtypes.finfo(f8).max)
    open_ = (low != high) | (np.abs(v) + delta > biggest) | ~np.isfinite(q)
    return x, scale, shift, q, open_


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, scale, shift, q, open_ = _parts(since, inputs, attributes)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = (q + shift) / scale
    y = np.where(open_, np.nan, y)
    return [round_to(np.ascontiguousarray(y), x.dtype)], [open_ if open_.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """(|q| + |shift|) / |scale|: the scale of the two roundings after the conversion."""
    _, scale, shift, q, open_ = _parts(since, inputs, attributes)
    with np.errstate(divide="ignore", invalid="ignore"):
        return [np.where(open_, 0.0, (np.abs(q) + np.abs(shift)) / np.abs(scale))]
