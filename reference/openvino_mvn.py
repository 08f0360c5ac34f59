"""OpenVINO MVN-1 and MVN-6: ``o = x - ReduceMean(x, axes)``, and with ``normalize_variance`` o divided by
sqrt(variance + eps) (MVN-1; MVN-6 ``eps_mode="inside_sqrt"``) or by sqrt(variance) + eps (``outside_sqrt``).

The axes: MVN-1 ``across_channels`` true: every axis but the first (each sample), false: every axis from the third
(each sample and channel); or its ``reduction_axes`` attribute ("only one of" the two, though the text calls both
required: exactly one is given); MVN-6 its ``axes`` input (int32/int64, 1-D, in [-r, r - 1]).

The variance: the texts write ``sqrt(sum o_k² + eps)`` and say "divided by variance", eps "added to the variance":
read as the variance, the mean of o_k² over the reduced axes (docs/spec-notes.md, "OpenVINO normalisations").
The value in wide precision (two-pass moments), rounded once; judged by the accumulation bound with K the reduced
extent at M = (|x| + mean|x|)/sigma + |y|·E[x²]/(var + eps) (reference/_normalization.py) and the + eps, sqrt and
division's roundings at |y|.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import axes_values, extent, moments, normalised_magnitude, reduced_axes, tensors_of_t, wide
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Port, Schema

AXES_TYPES = ("int32", "int64")
SCHEMA = Schema(
    "openvino", "MVN", (1, 6),
    attributes=(
        Attribute("across_channels", "bool", until=5),
        Attribute("reduction_axes", "ints", until=5),
        Attribute("normalize_variance", "bool", required=True),
        Attribute("eps", "float", required=True),
        Attribute("eps_mode", "enum", values=("inside_sqrt", "outside_sqrt"), since=6, required=True),
    ),
    inputs=(Port("data"), Port("axes", dtype="int64", dtypes=AXES_TYPES, since=6)),
    outputs=(Port("y"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _axes(since: int, shape: tuple[int, ...], attributes: dict[str, Any], axes: Any) -> tuple[dict, tuple[int, ...]]:
    label = f"MVN-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if not found["eps"] > 0:
        raise SpecViolation(f"{label}: eps {found['eps']} is not a positive number")
    rank = len(shape)
    if since >= 6:
        if axes is None:
            raise SpecViolation(f"{label} takes two inputs (data, axes)")
        return found, reduced_axes(SCHEMA, since, axes_values(SCHEMA, since, axes, AXES_TYPES), rank, unique=False)
    given = [name for name in ("across_channels", "reduction_axes") if name in attributes]
    if len(given) != 1:
        raise SpecViolation(f"{label}: exactly one of across_channels and reduction_axes is given, got {given}")
    if given == ["reduction_axes"]:
        values = found["reduction_axes"]
        if not isinstance(values, list | tuple) or not all(isinstance(v, int) for v in values):
            raise SpecViolation(f"{label}: reduction_axes is a list of integers, got {values!r}")
        return found, reduced_axes(SCHEMA, since, values, rank, unique=True)
    if rank < 2:
        raise SpecViolation(f"{label}: across_channels needs a batch and a channel axis, got rank {rank}")
    return found, tuple(range(1 if found["across_channels"] else 2, rank))


def _inputs(since: int, inputs: list[Any]) -> tuple[np.ndarray, Any]:
    count = 2 if since >= 6 else 1
    if len(inputs) != count:
        raise SpecViolation(f"MVN-{since} takes {count} input(s), got {len(inputs)}")
    x = tensors_of_t(SCHEMA, since, [inputs[0]], 1, (0,))[0]
    return x, inputs[1] if since >= 6 else None


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if since >= 6:
        if len(input_shapes) != 2 or len(input_shapes[1]) != 1:
            raise SpecViolation(f"MVN-{since} takes data and a 1-D axes input")
        axes = (input_values or {}).get(1)
        if axes is not None:
            _axes(since, tuple(input_shapes[0]), attributes, axes)
        else:
            attributes_of(SCHEMA, since, attributes)
    else:
        _axes(since, tuple(input_shapes[0]), attributes, None)
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: one mean (and one variance) sums the reduced extent's elements."""
    axes = (input_values or {}).get(1) if since >= 6 else None
    if since >= 6 and axes is None:
        return int(np.prod(input_shapes[0], dtype=np.int64)) or 1  # the axes unknown: the most it can be
    return extent(input_shapes[0], _axes(since, tuple(input_shapes[0]), attributes, axes)[1])


def _parts(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):
    x, axes = _inputs(since, inputs)
    found, reduced = _axes(since, x.shape, attributes, axes)
    w = wide(x)
    mean, var, mean_abs, square_mean = moments(w, reduced)
    eps = found["eps"]
    with np.errstate(all="ignore"):
        if not found["normalize_variance"]:
            sigma, denominator = np.ones_like(var), np.ones_like(var)
        elif found.get("eps_mode") == "outside_sqrt":
            sigma = np.sqrt(var) + eps
            # var's relative error reaches y through sqrt(var)/sigma: relative to sqrt(var)·sigma
            denominator = np.sqrt(var) * sigma
        else:
            denominator = var + eps
            sigma = np.sqrt(denominator)
        y = (w - mean) / sigma
    return x, w, y, mean_abs, sigma, square_mean, denominator, found["normalize_variance"]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, _, y, *_ = _parts(since, inputs, attributes)
    return [round_to(y, x.dtype)], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """M of reference/_normalization.py; without normalize_variance |x| + mean|x| (the mean and the subtraction)."""
    x, w, y, mean_abs, sigma, square_mean, denominator, scaled = _parts(since, inputs, attributes)
    if not scaled:
        return [np.broadcast_to(np.abs(w) + mean_abs, x.shape).astype(np.float64)]
    return [np.broadcast_to(normalised_magnitude(w, mean_abs, sigma, y, square_mean, denominator), x.shape).copy()]
