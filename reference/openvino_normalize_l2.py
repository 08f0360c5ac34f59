"""OpenVINO NormalizeL2-1: ``y = x / sqrt(eps_mode(sum over axes of x², eps))``, eps_mode ``add`` or ``max``.

``axes``: a scalar or 1-D tensor of unique elements of any integer type, in [-r, r - 1]. eps positive. No axis: the
text contradicts itself: its formula divides each element by sqrt(eps_mode(x², eps)) (-1 for negative x, and
x/sqrt(x² + eps) under add), its "particular case" by itself ("resulting value 1 for all non-zero elements").
The formula's value, unspecified wherever the two differ (docs/spec-notes.md, "OpenVINO normalisations").
Every term x² is >= 0: no cancellation, judged by the accumulation bound at |y| with K the reduced extent.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import axes_values, extent, l2_normalised, reduced_axes, tensors_of_t
from ._pnorm import round_to
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "NormalizeL2", (1,),
    attributes=(Attribute("eps", "float", required=True),
                Attribute("eps_mode", "enum", values=("add", "max"), required=True)),
    inputs=(Port("data"), Port("axes", dtype="int64", dtypes=OV_INTEGERS)),
    outputs=(Port("y"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _axes(since: int, shape: tuple[int, ...], attributes: dict[str, Any], axes: Any) -> tuple[dict, tuple[int, ...]]:
    found = attributes_of(SCHEMA, since, attributes)
    if not found["eps"] > 0:
        raise SpecViolation(f"NormalizeL2-{since}: eps {found['eps']} is not a positive number")
    values = axes_values(SCHEMA, since, axes, OV_INTEGERS, scalar=True)
    return found, reduced_axes(SCHEMA, since, values, len(shape), unique=True)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 2 or len(input_shapes[1]) > 1:
        raise SpecViolation(f"NormalizeL2-{since} takes data and a scalar or 1-D axes input")
    axes = (input_values or {}).get(1)
    if axes is not None:
        _axes(since, tuple(input_shapes[0]), attributes, axes)
    else:
        attributes_of(SCHEMA, since, attributes)
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: one sum of squares over the reduced extent."""
    axes = (input_values or {}).get(1)
    if axes is None:
        return int(np.prod(input_shapes[0], dtype=np.int64)) or 1
    return extent(input_shapes[0], _axes(since, tuple(input_shapes[0]), attributes, axes)[1])


def _value(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(x, y by the formula, where the text's no-axis case reads otherwise or None)."""
    if len(inputs) != 2:
        raise SpecViolation(f"NormalizeL2-{since} takes two inputs (data, axes), got {len(inputs)}")
    x = tensors_of_t(SCHEMA, since, [inputs[0]], 1, (0,))[0]
    found, axes = _axes(since, x.shape, attributes, inputs[1])
    y = l2_normalised(x, axes, found["eps"], found["eps_mode"])
    if axes:
        return x, y, None
    with np.errstate(invalid="ignore"):
        other = np.where(x == 0, y, 1.0)  # "divided by itself resulting value 1 for all non-zero elements"
    differ = ~((y == other) | (np.isnan(y) & np.isnan(other)))
    return x, y, differ if differ.any() else None


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, y, unspecified = _value(since, inputs, attributes)
    return [round_to(y, x.dtype)], [unspecified]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """|y|: the sum's terms are all >= 0, so its error is relative to it, and y's to |y|."""
    return [np.abs(_value(since, inputs, attributes)[1]).astype(np.float64)]
