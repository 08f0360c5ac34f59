"""What OpenVINO's normalisations share (BatchNormInference, MVN, NormalizeL2, GRN, LRN, GroupNormalization): the
inputs of type T and of an axes type, the reduced axes the texts allow, and the moments over them in wide
precision (float64, long double for float64 data), each result rounded once to T.

The magnitudes (``magnitude`` of each op) are the scales at which the op's roundings act, for the accumulation
bound ``(K + 2)·u·M + roundings·u·|y|`` (docs/tolerance.md): a mean of K terms errs by (K + 1)·u·mean|x|, the
subtraction x - mean by u·(|x| + |mean|), and a variance of K squares (E[x²] - mean², the form that errs more, so the
bound covers a backend computing either) by (K + 2)·u·E[x²], which its square root halves and the division carries
to y relative to var + eps. Hence M = (|x| + mean|x|)/sigma + |y|·E[x²]/(var + eps) for a normalisation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._pnorm import work_dtype
from .schema import Schema


def type_name(x: np.ndarray) -> str:
    return "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)


def tensors_of_t(schema: Schema, since: int, inputs: Sequence[Any], count: int, of_t: Sequence[int]
                 ) -> list[np.ndarray]:
    """The ``count`` inputs, those at ``of_t`` of one floating-point type T in the version's constraint."""
    label = f"{schema.op}-{since}"
    if len(inputs) != count or not all(isinstance(x, np.ndarray) for x in inputs):
        raise SpecViolation(f"{label} takes {count} tensors, got {len(inputs)}")
    first = inputs[of_t[0]]
    allowed = schema.supported_dtypes(since)
    if type_name(first) not in allowed:
        raise SpecViolation(f"{label}: input type {type_name(first)} is not in the type constraint {list(allowed)}")
    for i in of_t[1:]:
        if inputs[i].dtype != first.dtype:
            raise SpecViolation(f"{label}: input {i} is of type T ({type_name(first)}), got {type_name(inputs[i])}")
    return list(inputs)


def axes_values(schema: Schema, since: int, axes: Any, allowed: Sequence[str], scalar: bool = False) -> list[int]:
    """The integers of an axes input (1-D; a scalar where ``scalar``) of a type in ``allowed``."""
    label = f"{schema.op}-{since}"
    array = np.asarray(axes)
    if array.dtype.kind not in "iu" or type_name(array) not in allowed:
        raise SpecViolation(f"{label}: the axes input is of type {type_name(array)}, the text allows {list(allowed)}")
    if array.ndim > 1 or (array.ndim == 0 and not scalar):
        raise SpecViolation(f"{label}: the axes input is {'a scalar or ' if scalar else ''}1-D, got rank {array.ndim}")
    return [int(v) for v in array.reshape(-1)]


def reduced_axes(schema: Schema, since: int, values: Sequence[int], rank: int, unique: bool = True
                 ) -> tuple[int, ...]:
    """The axes in [-rank, rank - 1], negative ones counted from the back, sorted; repeated ones are an error where
    the text says the elements are unique, else the set."""
    label = f"{schema.op}-{since}"
    for v in values:
        if not -rank <= v < rank:
            raise SpecViolation(f"{label}: axis {v} is outside [{-rank}, {rank - 1}] for a rank-{rank} input")
    found = [v % rank for v in values]
    if unique and len(set(found)) != len(found):
        raise SpecViolation(f"{label}: the axes {list(values)} repeat an axis (the text: unique elements)")
    return tuple(sorted(set(found)))


def extent(shape: Sequence[int], axes: Sequence[int]) -> int:
    """K: how many elements one reduction over ``axes`` combines (1 over no axis: the element itself)."""
    return int(np.prod([shape[a] for a in axes], dtype=np.int64)) if axes else 1


def wide(x: np.ndarray) -> np.ndarray:
    return x.astype(work_dtype(x.dtype))


def moments(x: np.ndarray, axes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(mean, variance (the mean of squared deviations, two passes), mean|x|, E[x²]) over ``axes``, kept as
    broadcastable axes, of the wide array ``x``; over no axis the element itself (variance 0)."""
    with np.errstate(all="ignore"):
        if not axes or x.size == 0:
            return x.copy(), np.zeros_like(x), np.abs(x), x * x
        mean = np.mean(x, axis=axes, keepdims=True)
        var = np.mean((x - mean) ** 2, axis=axes, keepdims=True)
        return mean, var, np.mean(np.abs(x), axis=axes, keepdims=True), np.mean(x * x, axis=axes, keepdims=True)


def normalised_magnitude(x: np.ndarray, mean_abs: np.ndarray, sigma: np.ndarray, y: np.ndarray,
                         square_mean: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """M = (|x| + mean|x|)/sigma + |y|·E[x²]/denominator (module docstring), in float64; the terms a zero
    denominator leaves undefined are the unspecified elements' (inf)."""
    with np.errstate(all="ignore"):
        # y = 0 exactly (a constant line: var 0) carries no relative error, whatever the denominator
        relative = np.where(y == 0, 0.0, np.abs(y) * square_mean / denominator)
        m = (np.abs(x) + mean_abs) / sigma + relative
    return np.where(np.isnan(m), np.inf, m).astype(np.float64)


def l2_normalised(x: np.ndarray, axes: tuple[int, ...], eps: float, mode: str) -> np.ndarray:
    """x / sqrt(mode(sum of x² over ``axes``, eps)) in the wide type (NormalizeL2, GRN: mode ``add`` or ``max``)."""
    w = wide(x)
    with np.errstate(all="ignore"):
        squares = np.sum(w * w, axis=axes, keepdims=True) if axes else w * w
        combined = squares + eps if mode == "add" else np.maximum(squares, eps)  # NaN stays NaN in maximum
        return w / np.sqrt(combined)
