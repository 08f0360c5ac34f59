"""OpenVINO RMS-14 and RMS-15: ``x / sqrt(ReduceMean(x², axes) + epsilon)``, times the optional ``scale``.

data: T of any shape; axes: int32/int64, 1-D (RMS-15: or a scalar), in [-r, r - 1], "the order can be not sorted"
(repeated axes read as the set); scale (optional): T, "broadcastable to the shape of data" (numpy rules onto data's
shape, unidirectional). epsilon positive, required; compute_type "the precision for internal computation, before
scaling", default "undefined" (the input's type): only its default is exercised (another type changes the
arithmetic's precision, which the bound would have to follow). The pages' examples write ``eps``, an attribute the
op does not define (its name is epsilon): an erratum of both examples. Neither page's op is in an opset listing.

Every term x² >= 0: judged by the accumulation bound at |y|, K the reduced extent, then the + epsilon, sqrt,
division and scale: 3 roundings (as NormalizeL2).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import axes_values, extent, reduced_axes, tensors_of_t, wide
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Port, Schema

AXES_TYPES = ("int32", "int64")
SCHEMA = Schema(
    "openvino", "RMS", (14, 15),
    attributes=(Attribute("epsilon", "float", required=True), Attribute("compute_type", "enum", default="undefined")),
    inputs=(Port("data"), Port("axes", dtype="int64", dtypes=AXES_TYPES), Port("scale", optional=True)),
    outputs=(Port("y"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _config(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any], axes: Any
            ) -> tuple[float, tuple[int, ...] | None]:
    label = f"RMS-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if not found["epsilon"] > 0:
        raise SpecViolation(f"{label}: epsilon {found['epsilon']} is not a positive number")
    if len(shapes) not in (2, 3):
        raise SpecViolation(f"{label} takes data, axes and an optional scale, got {len(shapes)} inputs")
    data = tuple(shapes[0])
    if len(shapes[1]) > 1 or (len(shapes[1]) == 0 and since < 15):
        raise SpecViolation(f"{label}: axes is 1-D{' or a scalar' if since >= 15 else ''}, got {list(shapes[1])}")
    if len(shapes) == 3:
        try:
            if np.broadcast_shapes(tuple(shapes[2]), data) != data:
                raise ValueError
        except ValueError:
            raise SpecViolation(f"{label}: scale {list(shapes[2])} does not broadcast to data {list(data)}") from None
    if axes is None:
        return float(found["epsilon"]), None
    values = axes_values(SCHEMA, since, axes, AXES_TYPES, scalar=since >= 15)
    return float(found["epsilon"]), reduced_axes(SCHEMA, since, values, len(data), unique=False)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _config(since, [tuple(s) for s in input_shapes], attributes, (input_values or {}).get(1))
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: one mean of squares over the reduced extent."""
    _, axes = _config(since, [tuple(s) for s in input_shapes], attributes, (input_values or {}).get(1))
    shape = tuple(input_shapes[0])
    return extent(shape, axes) if axes is not None else max(1, int(np.prod(shape, dtype=np.int64)))


def _value(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    if len(inputs) not in (2, 3):
        raise SpecViolation(f"RMS-{since} takes data, axes and an optional scale, got {len(inputs)} inputs")
    x = tensors_of_t(SCHEMA, since, [inputs[0], *inputs[2:]], len(inputs) - 1, range(len(inputs) - 1))[0]
    epsilon, axes = _config(since, [a.shape for a in inputs], attributes, inputs[1])
    w = wide(x)
    with np.errstate(all="ignore"):
        mean = np.mean(w * w, axis=axes, keepdims=True) if axes else w * w
        y = w / np.sqrt(mean + epsilon)
        if len(inputs) == 3:
            y = y * wide(inputs[2])
    return x, y


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, y = _value(since, inputs, attributes)
    return [round_to(y, x.dtype)], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """|y|: every term x² >= 0, no cancellation; the scale multiplies the result."""
    return [np.abs(_value(since, inputs, attributes)[1]).astype(np.float64)]
