"""OpenVINO LRN-1: ``output = data / (bias + alpha/size^len(axes) · sqr_sum)^beta``.

The window, as the text's two examples spell it: along each axis of ``axes``, ``max(0, c - size/2) : min(n, c +
size/2 + 1)`` (integer division, zero padding outside), so an odd size is centred and an even size takes size + 1
elements; sqr_sum sums data² over the window's product across the axes. The formula's ``sum_i data_i`` has no
square while both examples square (``sqr_sum``, ``** 2``): read as squares (docs/spec-notes.md, "OpenVINO
normalisations"). ``axes``: a 1-D tensor of any integer type; the text gives no range: [-r, r - 1] read as the
other ops', repeated axes as one. beta and size positive, alpha and bias unrestricted: where the base
bias + alpha/size^n · sqr_sum is <= 0 the power (or the division) is undefined, unspecified.

Judged by the accumulation bound with K the window's elements at M = |y|·(1 + 2·beta·(|bias| + |alpha|·s)/|base|)
(s = sqr_sum/size^n: the sum of squares errs by K·u relative, the scaling by two roundings, the bias's sum by one;
beta carries the base's relative error to y), then pow's 16 ULPs (OpenCL) and the division at |y|.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import axes_values, reduced_axes, tensors_of_t, wide
from ._pnorm import round_to
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "LRN", (1,),
    attributes=(Attribute("alpha", "float", required=True), Attribute("beta", "float", required=True),
                Attribute("bias", "float", required=True), Attribute("size", "int", required=True)),
    inputs=(Port("data"), Port("axes", dtype="int64", dtypes=OV_INTEGERS)),
    outputs=(Port("y"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _config(since: int, shape: tuple[int, ...], attributes: dict[str, Any], axes: Any
            ) -> tuple[dict, tuple[int, ...] | None]:
    label = f"LRN-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if not found["size"] > 0:
        raise SpecViolation(f"{label}: size {found['size']} is not a positive integer")
    if not found["beta"] > 0:
        raise SpecViolation(f"{label}: beta {found['beta']} is not a positive number")
    if axes is None:
        return found, None
    return found, reduced_axes(SCHEMA, since, axes_values(SCHEMA, since, axes, OV_INTEGERS), len(shape), unique=False)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 2 or len(input_shapes[1]) != 1:
        raise SpecViolation(f"LRN-{since} takes data and a 1-D axes input")
    _config(since, tuple(input_shapes[0]), attributes, (input_values or {}).get(1))
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the window's elements, (2·(size/2) + 1) per reduced axis, clipped by the axis's length."""
    shape = tuple(input_shapes[0])
    found, axes = _config(since, shape, attributes, (input_values or {}).get(1))
    side = 2 * (found["size"] // 2) + 1
    axes = tuple(range(len(shape))) if axes is None else axes
    return int(np.prod([min(side, shape[a]) for a in axes], dtype=np.int64)) if axes else 1


def square_sums(w: np.ndarray, axes: tuple[int, ...], size: int) -> np.ndarray:
    """sqr_sum: data² summed over [max(0, c - size/2), min(n, c + size/2 + 1)) along each axis (zero padding)."""
    total = w * w
    half = size // 2
    for axis in axes:  # the window is a product of intervals: one axis at a time
        n = total.shape[axis]
        pad = [(0, 0)] * total.ndim
        pad[axis] = (half, half)
        padded = np.pad(total, pad)
        total = sum(np.take(padded, range(k, k + n), axis=axis) for k in range(2 * half + 1))
    return total


def _parts(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):
    if len(inputs) != 2:
        raise SpecViolation(f"LRN-{since} takes two inputs (data, axes), got {len(inputs)}")
    x = tensors_of_t(SCHEMA, since, [inputs[0]], 1, (0,))[0]
    found, axes = _config(since, x.shape, attributes, inputs[1])
    w = wide(x)
    scaled = found["alpha"] / float(found["size"]) ** len(axes)
    with np.errstate(all="ignore"):
        s = square_sums(w, axes, found["size"])
        base = found["bias"] + scaled * s
        y = w / base ** found["beta"]
    return x, y, base, found, np.abs(scaled) * s


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, y, base, *_ = _parts(since, inputs, attributes)
    bad = ~(base > 0)
    return [round_to(np.where(bad, 0.0, y), x.dtype)], [bad if bad.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """|y|·(1 + 2·beta·(|bias| + |alpha|·s)/|base|): the base's relative error carried to y (module docstring)."""
    x, y, base, found, terms = _parts(since, inputs, attributes)
    with np.errstate(all="ignore"):
        m = np.abs(y) * (1 + 2 * found["beta"] * (abs(found["bias"]) + terms) / np.abs(base))
    return [np.where(np.isnan(m), np.inf, m).astype(np.float64)]
