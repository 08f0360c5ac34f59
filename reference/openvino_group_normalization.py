"""OpenVINO GroupNormalization-12: ``y = scale·(x - mean)/sqrt(variance + epsilon) + bias``, mean and variance per
sample and group of C/G channels (and every axis after the channels), scale and bias per channel.

data: [N, C, ...] (rank >= 2); scale, bias: [C], of type T. num_groups in [1, C]; the text's N x G x C/G x H x W
form needs G to divide C (docs/spec-notes.md, "OpenVINO normalisations"). epsilon positive. The variance is the
mean of squared deviations. The value in wide precision, rounded once; judged by the accumulation bound with K =
C/G times the spatial extent at M = |scale|·((|x| + mean|x|)/sigma + |x̂|·E[x²]/(var + eps)) + |bias|
(reference/_normalization.py), and the + epsilon, sqrt and division at |y|.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import moments, normalised_magnitude, tensors_of_t, wide
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "GroupNormalization", (12,),
    attributes=(Attribute("num_groups", "int", required=True), Attribute("epsilon", "float", required=True)),
    inputs=(Port("data"), Port("scale"), Port("bias")), outputs=(Port("y"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _check(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> tuple[int, float]:
    label = f"GroupNormalization-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if len(shapes) != 3:
        raise SpecViolation(f"{label} takes three inputs (data, scale, bias), got {len(shapes)}")
    data = tuple(shapes[0])
    if len(data) < 2:
        raise SpecViolation(f"{label}: data's first two axes are batch and channels, got rank {len(data)}")
    channels, groups = data[1], found["num_groups"]
    if not 1 <= groups <= channels or channels % groups:
        raise SpecViolation(f"{label}: num_groups {groups} is not in [1, {channels}] dividing the channels")
    if not found["epsilon"] > 0:
        raise SpecViolation(f"{label}: epsilon {found['epsilon']} is not a positive number")
    for name, shape in (("scale", shapes[1]), ("bias", shapes[2])):
        if tuple(shape) != (channels,):
            raise SpecViolation(f"{label}: {name} is [C] = [{channels}], got {list(shape)}")
    return groups, float(found["epsilon"])


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _check(since, input_shapes, attributes)
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: a group's elements, C/G channels times the spatial extent."""
    groups, _ = _check(since, input_shapes, attributes)
    data = input_shapes[0]
    return max(1, int(np.prod(data[2:], dtype=np.int64)) * (data[1] // groups))


def _parts(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):
    x, scale, bias = tensors_of_t(SCHEMA, since, inputs, 3, (0, 1, 2))
    groups, epsilon = _check(since, [a.shape for a in inputs], attributes)
    n, c = x.shape[:2]
    grouped = wide(x).reshape(n, groups, -1)  # N x G x (C/G · spatial)
    mean, var, mean_abs, square_mean = moments(grouped, (2,))
    with np.errstate(all="ignore"):
        denominator = var + epsilon
        sigma = np.sqrt(denominator)
        normalised = (grouped - mean) / sigma
    at = (1, c) + (1,) * (x.ndim - 2)
    g, b = wide(scale).reshape(at), wide(bias).reshape(at)

    def back(a: np.ndarray) -> np.ndarray:
        return np.broadcast_to(a, grouped.shape).reshape(x.shape)

    return x, back(grouped), back(normalised), g, b, back(mean_abs), back(sigma), back(square_mean), back(denominator)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, _, normalised, g, b, *_ = _parts(since, inputs, attributes)
    with np.errstate(all="ignore"):
        return [round_to(g * normalised + b, x.dtype)], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """|scale|·M(x̂) + |bias|: the normalisation's scale of reference/_normalization.py, then the affine step."""
    x, w, normalised, g, b, mean_abs, sigma, square_mean, denominator = _parts(since, inputs, attributes)
    inner = normalised_magnitude(w, mean_abs, sigma, normalised, square_mean, denominator)
    with np.errstate(all="ignore"):
        return [(np.abs(g) * inner + np.abs(b)).astype(np.float64)]
