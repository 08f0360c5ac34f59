"""The activations of OpenVINO whose parameters are inputs (PReLU's slope, Selu's alpha and lambda, HardSigmoid's
alpha and beta, Swish's optional beta): the shape rules their texts give those inputs, and the value computed
wide (float64; long double for float64) and rounded once to the type (reference/_pnorm.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype


def scalar_parameters(shapes_of: dict[int, tuple[int, ...]]) -> Callable:
    """A shape rule: the output is the data's shape; input ``i`` must have the shape ``shapes_of[i]`` names (()
    a 0-D scalar, (1,) a 1-D tensor of one element), and is aligned as a scalar."""

    def shape(label: str, shapes: list[tuple[int, ...]], attributes: dict[str, Any]
              ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
        for index, wanted in shapes_of.items():
            if index < len(shapes) and tuple(shapes[index]) != wanted:
                kind = "a 0-D tensor (scalar)" if wanted == () else f"a tensor of shape {list(wanted)}"
                raise SpecViolation(f"{label}: input {index + 1} must be {kind}, got shape {list(shapes[index])}")
        return tuple(shapes[0]), [tuple(shapes[0])] + [() for _ in shapes[1:]]

    return shape


def wide(x: np.ndarray) -> np.ndarray:
    """An input in the type its formula is evaluated in."""
    return x.astype(work_dtype(x.dtype))


def rounded(y: np.ndarray, like: np.ndarray) -> np.ndarray:
    return round_to(np.asarray(y, dtype=work_dtype(like.dtype)), like.dtype)
