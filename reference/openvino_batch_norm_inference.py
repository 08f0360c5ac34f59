"""OpenVINO BatchNormInference-5: ``y = gamma·(x - mean)/sqrt(variance + epsilon) + beta``, per channel (axis 1).

Inputs in the text's order: data (rank >= 2, the second axis the channels, "a span of at least 1"), gamma, beta,
mean, variance (each 1-D of the channel count), all of type T (floating point); ``epsilon`` >= 0, required. The
index lists two pages for it (batch-norm-inference-1.rst and -5.rst): both say BatchNormInference-5 and differ in
one blank line; no BatchNormInference-1 text exists (docs/spec-notes.md, "OpenVINO normalisations").

The value in wide precision, rounded once. Where variance + epsilon <= 0 (epsilon 0 and a zero variance, or a
negative variance the text does not exclude) the square root or the division is undefined: unspecified.
No sum: judged by the accumulation bound with K = 1 at M = |gamma|·(|x| + |mean|)/sqrt(variance + epsilon) + |beta|
(the subtraction's, the product's and the sum's roundings), and the + epsilon, sqrt and division at |y|.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import tensors_of_t, wide
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Axes, Port, Schema

SCHEMA = Schema(
    "openvino", "BatchNormInference", (5,),
    attributes=(Attribute("epsilon", "float", required=True),),
    inputs=(Port("data"), Port("gamma"), Port("beta"), Port("mean"), Port("variance")),
    outputs=(Port("y"),), axes=Axes(ranks=(2, 3, 4, 5), leading=2),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _check(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> float:
    label = f"BatchNormInference-{since}"
    epsilon = attributes_of(SCHEMA, since, attributes)["epsilon"]
    if not epsilon >= 0:
        raise SpecViolation(f"{label}: epsilon {epsilon} is not >= 0")
    if len(shapes) != 5:
        raise SpecViolation(f"{label} takes five inputs (data, gamma, beta, mean, variance), got {len(shapes)}")
    data = tuple(shapes[0])
    if len(data) < 2 or data[1] < 1:
        raise SpecViolation(f"{label}: data has rank >= 2 and a channel axis of span >= 1, got {list(data)}")
    for name, shape in zip(("gamma", "beta", "mean", "variance"), shapes[1:], strict=True):
        if tuple(shape) != (data[1],):
            raise SpecViolation(f"{label}: {name} is 1-D of the channel span {data[1]}, got {list(shape)}")
    return float(epsilon)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _check(since, input_shapes, attributes)
    return [tuple(input_shapes[0])]


def _parts(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):
    x, gamma, beta, mean, var = tensors_of_t(SCHEMA, since, inputs, 5, range(5))
    epsilon = _check(since, [a.shape for a in inputs], attributes)
    at = (1, -1) + (1,) * (x.ndim - 2)  # per channel, broadcast over the other axes
    g, b, m, v = (wide(a).reshape(at) for a in (gamma, beta, mean, var))
    with np.errstate(all="ignore"):
        denominator = v + epsilon
        sigma = np.sqrt(denominator)
    return x, wide(x), g, b, m, denominator, sigma


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, w, g, b, m, denominator, sigma = _parts(since, inputs, attributes)
    with np.errstate(all="ignore"):
        y = g * (w - m) / sigma + b
    bad = np.broadcast_to(~(denominator > 0), x.shape)
    return [round_to(y, x.dtype)], [bad.copy() if bad.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """|gamma|·(|x| + |mean|)/sqrt(variance + epsilon) + |beta|: the scale of the subtraction's, product's and sum's
    roundings (the sum can cancel: |y| is no scale of them)."""
    x, w, g, b, m, denominator, sigma = _parts(since, inputs, attributes)
    with np.errstate(all="ignore"):
        mag = np.abs(g) * (np.abs(w) + np.abs(m)) / sigma + np.abs(b)
    return [np.where(np.isnan(mag), np.inf, mag).astype(np.float64)]
