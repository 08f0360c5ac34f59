"""OpenVINO Inverse-14: the inverse of each square matrix of the two innermost axes (batch axes in front).

``adjoint``: the attribute's description says true "returns the adjoint (conjugate transpose) of the input matrices
instead of finding the inverse", the detailed description and the algorithm that with it "the output ... can be
represented by (A^T)^-1" (U starts as the transpose): read as (A^T)^-1, the inverse of the adjoint
(docs/spec-notes.md, "OpenVINO Einsum and Inverse"). A matrix that is not invertible "may raise an exception or
return an undefined result": its elements are unspecified.

The value: the exact inverse, computed in float64 and rounded once. Judged by the accumulation bound with K = 3n
and M = |X|·|L||U|·|X| (X the inverse, L and U the factors of LU with partial pivoting): the computed inverse of
an LU solve is exact for A + dA with |dA| <= gamma_3n·|L||U| (Higham, Accuracy and Stability, 9.3 and 14.3), which
moves X by X·dA·X. The text converts every type to f32 and back: float64's M is scaled by 2^29 (f32's unit
roundoff over float64's), so its bound is the f32 computation's the text prescribes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import tensors_of_t
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "Inverse", (14,),
    attributes=(Attribute("adjoint", "bool", default=False),),
    inputs=(Port("input"),), outputs=(Port("output"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _check(since: int, shape: tuple[int, ...]) -> int:
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise SpecViolation(f"Inverse-{since}: the two innermost axes form square matrices, got {list(shape)}")
    return int(shape[-1])


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes_of(SCHEMA, since, attributes)
    if len(input_shapes) != 1:
        raise SpecViolation(f"Inverse-{since} takes one input, got {len(input_shapes)}")
    _check(since, tuple(input_shapes[0]))
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K = 3n: LU's backward error gamma_3n (the factorisation and the two triangular solves)."""
    return 3 * max(1, _check(since, tuple(input_shapes[0])))


def lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """L and U of P·A = L·U, partial pivoting (the largest |value| of the column), float64."""
    n = a.shape[0]
    u, lower = a.astype(np.float64).copy(), np.eye(n)
    for c in range(n):
        pivot = c + int(np.argmax(np.abs(u[c:, c])))
        if pivot != c:
            u[[c, pivot]] = u[[pivot, c]]
            lower[[c, pivot], :c] = lower[[pivot, c], :c]
        if u[c, c] != 0:
            factors = u[c + 1:, c] / u[c, c]
            lower[c + 1:, c] = factors
            u[c + 1:] -= np.outer(factors, u[c])
    return lower, u


def _parts(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):
    x = tensors_of_t(SCHEMA, since, inputs, 1, (0,))[0]
    n = _check(since, x.shape)
    a = x.astype(np.float64)
    if attributes_of(SCHEMA, since, attributes)["adjoint"]:
        a = np.swapaxes(a, -1, -2)
    matrices = a.reshape(-1, n, n)
    inverse = np.zeros_like(matrices)
    singular = np.zeros(len(matrices), dtype=bool)
    for i, m in enumerate(matrices):
        if not np.isfinite(m).all() or np.linalg.matrix_rank(m) < n:
            singular[i] = True
            continue
        inverse[i] = np.linalg.inv(m)
    return x, n, matrices, inverse, singular


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, n, _, inverse, singular = _parts(since, inputs, attributes)
    mask = np.repeat(singular, n * n).reshape(x.shape)
    return [round_to(inverse.reshape(x.shape), x.dtype)], [mask if mask.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """|X|·|L||U|·|X| per matrix (module docstring); float64's scaled to the f32 computation the text prescribes."""
    x, n, matrices, inverse, singular = _parts(since, inputs, attributes)
    found = np.full_like(inverse, np.inf)
    for i, (m, inv) in enumerate(zip(matrices, inverse, strict=True)):
        if not singular[i]:
            lower, upper = lu(m)
            found[i] = np.abs(inv) @ (np.abs(lower) @ np.abs(upper)) @ np.abs(inv)
    scale = 2.0 ** 29 if x.dtype == np.float64 else 1.0
    return [scale * found.reshape(x.shape)]
