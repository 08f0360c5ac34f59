"""Exceptions and small validation helpers shared by every op module."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ml_dtypes
import numpy as np


class SpecViolation(ValueError):
    """Attributes or inputs that the op's specification forbids (negative cases rely on this)."""


class UnknownOp(LookupError):
    """No reference implementation is registered for this (domain, op, version)."""


# Every float dtype the reference can compute; the spec's own constraints are reported separately.
FLOAT_DTYPES: tuple[np.dtype, ...] = (
    np.dtype(np.float16),
    np.dtype(np.float32),
    np.dtype(np.float64),
    np.dtype(ml_dtypes.bfloat16),
)


def check_float_input(x: np.ndarray, what: str = "input 0") -> None:
    if not isinstance(x, np.ndarray):
        raise SpecViolation(f"{what} must be a numpy array, got {type(x).__name__}")
    if x.dtype not in FLOAT_DTYPES:
        raise SpecViolation(f"{what} has dtype {x.dtype}; the op is defined for floating-point tensors only")


def one_float_input(op: str, since: int, inputs: Sequence[np.ndarray],
                    allowed: Sequence[str] | None = None) -> np.ndarray:
    """The op's single input, a floating-point array in the version's type constraint (``allowed``, when the
    version narrows it): the checks every single-input pool's ``evaluate`` starts with."""
    if len(inputs) != 1:
        raise SpecViolation(f"{op}-{since} takes exactly one input, got {len(inputs)}")
    x = inputs[0]
    check_float_input(x)
    name = "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)
    if allowed is not None and name not in allowed:
        raise SpecViolation(f"{op}-{since}: input dtype {name} is not in the type constraint {list(allowed)}")
    return x


def check_rank(shape: Sequence[int], low: int, high: int | None, what: str = "input 0") -> None:
    rank = len(shape)
    if rank < low or (high is not None and rank > high):
        allowed = f"{low}..{high}" if high is not None else f">= {low}"
        raise SpecViolation(f"{what} has rank {rank}; the spec allows rank {allowed}")


def check_unknown_attributes(attributes: dict[str, Any], allowed: Sequence[str], op: str) -> None:
    # An attribute a version does not define is a spec violation (e.g. ceil_mode on AveragePool-7).
    extra = sorted(set(attributes) - set(allowed))
    if extra:
        raise SpecViolation(f"{op}: attribute(s) {extra} are not defined by this version (allowed: {sorted(allowed)})")


def int_list(value: Any, name: str, length: int, minimum: int) -> list[int]:
    """Validate an int-list attribute: exact length (= spatial rank) and lower bound."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence | np.ndarray):
        raise SpecViolation(f"attribute {name} must be a list of ints, got {value!r}")
    out: list[int] = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int | np.integer):
            raise SpecViolation(f"attribute {name} must hold ints, got {v!r}")
        out.append(int(v))
    if len(out) != length:
        raise SpecViolation(f"attribute {name} has {len(out)} values; the input has {length} spatial axes")
    bad = [v for v in out if v < minimum]
    if bad:
        raise SpecViolation(f"attribute {name}={out}: values must be >= {minimum}")
    return out


def enum_attr(value: Any, name: str, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise SpecViolation(f"attribute {name}={value!r} is not one of {list(allowed)}")
    return value


def bool_attr(value: Any, name: str) -> bool:
    # OpenVINO / oneDNN booleans arrive as Python bool; numpy bools are tolerated.
    if not isinstance(value, bool | np.bool_):
        raise SpecViolation(f"attribute {name} must be a boolean, got {value!r}")
    return bool(value)


def flag_attr(value: Any, name: str) -> bool:
    # ONNX encodes flags as INT 0/1.
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or int(value) not in (0, 1):
        raise SpecViolation(f"attribute {name} must be the int 0 or 1, got {value!r}")
    return bool(value)
