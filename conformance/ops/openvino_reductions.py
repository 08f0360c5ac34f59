"""What the registry entries of the OpenVINO Reduce* ops share (no ENTRY here): the coverage dimensions of the
pages' own words (keep_dims, and the axes input: empty, a scalar, negative, every axis), and ReduceProd's bound.

A product of K factors computed in any order is K - 1 correctly rounded multiplications: each multiplies the
relative error by (1 + d), |d| <= u, so |computed - y| <= gamma(K - 1)·|y|, gamma(n) = n·u/(1 - n·u) (Higham,
"Accuracy and Stability", Lemma 3.1), with no cancellation whatever the signs. The reference (exact, then rounded)
and a backend each round to the output type: 1 ulp of the expected value covers that. No built-in model is
(K - 1)·u·|y|: the accumulation bound (K + 2)·u·|y| would allow three roundings more than a product has (4 times
the bound at K = 2). Intermediate underflow or overflow is outside the bound (first order, as every model).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.tolerance import Policy
from conformance.compare.values import Comparison, compare
from conformance.dtypes import finfo, floating, numpy, ulp
from conformance.model import CaseInstance
from conformance.ops import dims


def _axes_kind(instance: CaseInstance) -> str | None:
    """How the instance's axes input reads: empty, a scalar, with a negative axis, every axis, or some."""
    if len(instance.inputs) < 2 or instance.inputs[1].data is None:
        return None
    values = np.asarray(instance.inputs[1].data)
    shape = instance.inputs[1].shape
    rank = len(instance.inputs[0].shape or ())
    if values.size == 0:
        return "empty"
    if shape is not None and len(shape) == 0:
        return "scalar"
    if (values < 0).any():
        return "negative"
    return "all" if values.size == rank else "some"


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("keep_dims", ("false", "true"), dims.attr("keep_dims", False, dims.boolean)),
            dims.Dimension("axes", ("empty", "scalar", "negative", "all", "some"), _axes_kind)]


@dataclass(frozen=True)
class ProductPolicy(Policy):
    """gamma(K - 1)·|y| + 1 ulp, scaled and overridden as any policy."""

    def describe(self) -> str:
        if self.overridden:
            return super().describe()
        if not floating(numpy(self.dtype)):
            return f"exact ({self.dtype}; an integer product has no rounding)"
        scale = f"{self.scale:g}*" if self.scale != 1 else ""
        return (f"{scale}(gamma(K-1)*|y| + 1ulp), a product of K={self.window} factors, gamma(n)=n*u/(1-n*u), "
                f"u=2^-{finfo(self.dtype).nmant + 1} ({self.dtype})")

    def bound(self, expected: np.ndarray, magnitude: np.ndarray | None,
              one_ulp: np.ndarray | None = None) -> np.ndarray:
        if self.overridden:
            return super().bound(expected, magnitude, one_ulp)
        exp64 = np.asarray(expected, dtype=np.float64)
        if not floating(numpy(self.dtype)):  # an integer product has no rounding: exact
            return np.zeros_like(exp64)
        n = max(self.window - 1, 0) * 2.0 ** -(finfo(self.dtype).nmant + 1)
        gamma = n / (1 - n) if n < 1 else np.inf
        if one_ulp is None:
            one_ulp = ulp(exp64, self.dtype)
        return self.scale * (gamma * np.abs(exp64) + one_ulp)


class Product(ErrorModel):
    """ReduceProd's values: a product of K factors (K from ``window_elements``), gamma(K - 1)·|y| + 1 ulp."""

    name = "product"
    bound = "pnorm"  # a built-in that asks the oracle for K and for no magnitude (the bound is relative to |y|)

    def _policy(self, policy: Policy | None) -> ProductPolicy | None:
        if policy is None:
            return None
        fields: dict[str, Any] = {k: getattr(policy, k) for k in ("window", "dtype", "scale", "atol", "rtol", "ulp")}
        return replace(ProductPolicy(**fields), model="pnorm")

    def describe(self, policy: Policy | None) -> str:
        found = self._policy(policy)
        return found.describe() if found is not None else self.name

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Policy | None,
              magnitude: np.ndarray | None, evidence: Evidence) -> Comparison:
        return compare(expected, actual, self._policy(policy), None, output.unspecified, name=output.name)
