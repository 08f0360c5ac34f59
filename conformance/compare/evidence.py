"""What judging needs of one case instance, computed by the oracle and handed to the comparison as data.

Per output: its error model and the inputs of its bound (K, the p-norm's p, the unspecified mask). Two figures
cost a second reference evaluation or a window walk, and most judgments never need them: the magnitude (the op
applied to |x|, only when an averaging output fails on a cheaper floor) and the taps (only when an index differs
from the reference's). The oracle supplies them as functions it computes once and keeps, so this package imports
neither the oracle nor the registry and stays a set of pure functions of arrays and this evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: The built-in error models (docs/tolerance.md derives each; compare/outputs.py dispatches them).
ERROR_MODELS = ("average", "exact", "index", "pnorm")

#: Per output element, the tap indices of its window in the op's index convention (-1 for padding) and the values
#: there, both shaped (*output.shape, taps); None when the op has no window description.
Taps = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class OutputRule:
    """How one output is judged."""

    name: str  # the output's name in the case (messages)
    label: str  # the op's port name (the record's per-output tolerance text)
    error_model: str = "average"
    window: int = 1  # K: the most input elements one output element averages (or sums, for a p-norm)
    p: float = 1.0  # pnorm: the norm's exponent
    of_values: int = 0  # index outputs: which output holds the values the indices point at
    unspecified: np.ndarray | None = None  # True where the spec leaves the value undefined


@dataclass(frozen=True)
class Evidence:
    """Everything the comparison of a case instance's outputs needs besides the arrays."""

    dtype: str  # the instance's data type (the bound's unit roundoff)
    tolerance: dict[str, Any]  # the case's ``tolerance`` override mapping (docs/case-format.md)
    outputs: tuple[OutputRule, ...]
    inputs_finite: bool  # every floating-point input is finite (the magnitude floor is valid only then)
    magnitude: Callable[[], list[np.ndarray] | None]  # the op on |x| in float64, per output (computed once)
    taps: Callable[[], Taps | None]  # the windows of the op's index outputs (computed once)
