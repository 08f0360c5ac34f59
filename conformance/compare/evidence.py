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
from typing import TYPE_CHECKING, Any

import numpy as np

from conformance.compare.models import MODELS

if TYPE_CHECKING:  # pragma: no cover
    from conformance.compare.comparison import Comparison
    from conformance.compare.models import Policy

#: The built-in error models' names (compare/models.py: the one place a model is declared).
ERROR_MODELS = tuple(MODELS)

#: Per output element, the tap indices of its window in the op's index convention (-1 for padding) and the values
#: there, both shaped (*output.shape, taps); None when the op has no window description.
Taps = tuple[np.ndarray, np.ndarray]


class ErrorModel:
    """An error model an op declares for an output (in its registry entry) where the built-in ones do not fit: a
    gradient whose routing among tied maxima is free, an integer average whose rounding the text leaves open.

    ``bound`` names the built-in model whose bound (compare/tolerance.py ``Policy``) and magnitude it starts from;
    ``judge`` compares one output from the arrays and the evidence alone (the inputs and attributes, the exact
    values, the tie groups: what the oracle computed once from the op's reference). A model never calls the
    reference or the registry itself: the comparison stays a function of arrays and this evidence.
    """

    name = "custom"
    bound = "average"
    #: judged with every output of the same run (``judge(..., outputs=actual)``): a mask that must agree with the
    #: values the same draw gave
    joint = False

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Policy | None,
              magnitude: np.ndarray | None, evidence: Evidence) -> Comparison:
        raise NotImplementedError

    def describe(self, policy: Policy | None) -> str:
        """The record's tolerance text for this output."""
        return f"{self.name}: {policy.describe()}" if policy is not None else self.name

    def describe_for(self, policy: Policy | None, evidence: Evidence) -> str:
        """The record's tolerance text for this output of ``evidence``'s instance: ``describe`` unless the text
        depends on the op's version (a model that judges one version otherwise)."""
        return self.describe(policy)


@dataclass(frozen=True)
class OutputRule:
    """How one output is judged."""

    name: str  # the output's name in the case (messages)
    label: str  # the op's port name (the record's per-output tolerance text)
    error_model: str = "average"
    window: int = 1  # K: the most input elements one output element averages (or sums, for a p-norm)
    window_note: str = ""  # how K was had when not from the node itself (a stated fallback), for the record
    p: float = 1.0  # pnorm: the norm's exponent
    of_values: int = 0  # index outputs: which output holds the values the indices point at
    unspecified: np.ndarray | None = None  # True where the spec leaves the value undefined
    custom: ErrorModel | None = None  # the op's own model (``error_model`` is then the built-in it starts from)
    ulps: float = 0.0  # ulp: the bound in ULPs of the expected value
    roundings: int = 0  # the op's own roundings after the model's arithmetic (compare/models.py Model)
    dtype: str | None = None  # the output's own dtype when it differs from the instance's (a whole model's)
    drawn_from: tuple[float, ...] | None = None  # random: the values a draw may take, where the op promises them

    @property
    def model_name(self) -> str:
        return self.custom.name if self.custom is not None else self.error_model


@dataclass(frozen=True)
class Evidence:
    """Everything the comparison of a case instance's outputs needs besides the arrays."""

    dtype: str  # the instance's data type (the bound's unit roundoff)
    tolerance: dict[str, Any]  # the case's ``tolerance`` override mapping (docs/case-format.md)
    outputs: tuple[OutputRule, ...]
    inputs_finite: bool  # every floating-point input is finite (the magnitude floor is valid only then)
    magnitude: Callable[[], list[np.ndarray] | None]  # the op on |x| in float64, per output (computed once)
    taps: Callable[[], Taps | None]  # the windows of the op's index outputs (computed once)
    # what the case instance is, for an op's own error model (ErrorModel.judge) to read
    domain: str = ""
    op: str = ""
    version: int = 0
    attributes: dict[str, Any] | None = None
    inputs: tuple[np.ndarray, ...] = ()
    # the op on the integer inputs as Python ints: exact rationals per output (an open-rounding model's means),
    # computed by the oracle on first use; None when it cannot say
    exact: Callable[[], list[np.ndarray] | None] = lambda: None
    # an op whose output moves with the choice among tied maxima: the reference's tie groups (computed once)
    tie_groups: Callable[[], Any] = lambda: None
    # an op whose text defines its value in several ways: per reading's name, the reference's outputs by that
    # reading (``readings`` of its module, computed once); None when the op has one reading
    readings: Callable[[], dict[str, list[np.ndarray]] | None] = lambda: None
