"""oneDNN Graph MaxPoolBackward (one version): diff_src of MaxPool from src and diff_dst; dilations counted from 1,
no rounding_type (diff_dst's extent picks the windows), NXC (default) or NCX (reference/onednn_maxpool_backward.py
holds the semantics; docs/spec-notes.md B5-B9).

diff_src is judged by its own error model, ``GradientRouting``: the text leaves open which of several equal
maxima receives a window's gradient, so the reference marks the elements such a choice can move values between
(tie groups) unspecified and gives each group the total every admissible routing keeps.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.tolerance import Policy, finfo, policy_for, ulp
from conformance.compare.values import Comparison, compare
from conformance.ops import dims
from conformance.ops.onednn_avgpool import auto_pad_of
from conformance.ops.onednn_avgpool_backward import extent_of
from conformance.ops.spec import OpEntry
from conformance_reference import onednn_maxpool_backward

AUTO_PAD = next(a.values for a in onednn_maxpool_backward.SCHEMA.attributes if a.name == "auto_pad")


class GradientRouting(ErrorModel):
    """A gradient routed to window maxima, where the routing among tied maxima is the runtime's choice.

    Elements outside every tie group: the averaging bound, element by element (they sum diff_dst terms routed by
    the one maximum of their windows). Each tie group (not ``free``: a NaN window leaves even its total open):
    whatever the routing inside it, the group's elements add up to the total every admissible routing keeps, so

        |Σ actual − total| ≤ (terms + 2)·u·Σ|terms| + Σ over the group's elements of ulp(max(|expected|, |actual|))

    - the averaging bound of one sum of ``terms`` terms (each element's own accumulation and rounding is part of
    it), plus one rounding to the output type per element. The record counts the groups checked as ``ties``.
    """

    name = "gradient-routing"
    bound = "average"

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Policy | None,
              magnitude: np.ndarray | None, evidence: Evidence) -> Comparison:
        if policy is None:  # compare/outputs.py gives value outputs a policy; keep the default bound regardless
            policy = policy_for(evidence.dtype, output.window, evidence.tolerance, "", model=self.bound)
        result = compare(expected, actual, policy, magnitude, output.unspecified, name=output.name)
        if output.unspecified is None or not isinstance(actual, np.ndarray) or actual.shape != expected.shape:
            return result  # no tie group (the reference marks none), or nothing to sum: the comparison decides
        groups = evidence.tie_groups()
        if groups is None:
            return result  # the reference describes no tie groups for this op: the comparison decides
        return _judge_groups(result, expected, actual, groups, policy, output.name)

    def describe(self, policy: Policy | None) -> str:
        bound = policy.describe() if policy is not None else "average"
        return f"{self.name}: {bound} outside tie groups; each tie group's total within (terms+2)*u*sum|terms| + ulps"


def _group_bounds(expected: np.ndarray, actual: np.ndarray, groups: Any, policy: Policy) -> np.ndarray:
    """Per group, the allowed |Σ actual − total| (docstring of GradientRouting); an override of the case's
    tolerance (atol/rtol/ulp) applies per element of the group instead, so it means the same as elsewhere."""
    member = groups.group >= 0
    ids = groups.group[member]
    n = len(groups.sums)
    big = np.maximum(np.abs(expected.astype(np.float64)), np.abs(np.nan_to_num(actual.astype(np.float64))))[member]
    if policy.overridden:
        return np.bincount(ids, weights=policy.bound(big, None), minlength=n)
    u = 2.0 ** -(finfo(policy.dtype).nmant + 1)
    ulps = np.bincount(ids, weights=ulp(big, policy.dtype), minlength=n)
    return policy.scale * ((groups.terms + 2) * u * groups.magnitudes + ulps)


def _judge_groups(result: Comparison, expected: np.ndarray, actual: np.ndarray, groups: Any, policy: Policy,
                  name: str) -> Comparison:
    checked = ~np.asarray(groups.free, bool)
    if not checked.any():
        return result
    member = groups.group >= 0
    ids = groups.group[member]
    n = len(groups.sums)
    a = actual.astype(np.float64)[member]
    with np.errstate(invalid="ignore", over="ignore"):
        totals = np.bincount(ids, weights=a, minlength=n)
        err = np.abs(totals - groups.sums)
        bad = checked & ~(err <= _group_bounds(expected, actual, groups, policy))
    result.ties = int(checked.sum())
    sizes = np.bincount(ids, minlength=n)
    if not bad.any():
        if result.ok:
            result.reason = (f"{name}: {result.ties} tie group(s) judged by their totals (which tied maximum "
                             "receives the gradient is the runtime's choice)")
        return result
    first = int(np.flatnonzero(bad)[0])
    where = [int(i) for i in np.argwhere(groups.group == first)[0]]
    allowed = _group_bounds(expected, actual, groups, policy)[first]
    text = (f"{name}: {int(bad.sum())} of {result.ties} tie group(s) do not keep their total; group {first} "
            f"({int(sizes[first])} elements, first at {where}): sum {totals[first]:.9g}, every admissible routing "
            f"gives {groups.sums[first]:.9g} (|err| {err[first]:.3g} > allowed {allowed:.3g})")
    result.ok = False
    result.reason = f"{result.reason}; {text}" if result.reason else text
    result.mismatches = int(result.mismatches or 0) + int(sizes[bad].sum())
    if not result.worst:
        result.worst = [{"index": where, "expected": float(groups.sums[first]), "actual": float(totals[first]),
                         "abs_err": float(err[first]), "allowed": float(allowed)}]
    return result


def coverage(version: int) -> list[dims.Dimension]:
    extent_of_dst = extent_of("MaxPool", 0, 1)
    return [
        dims.Dimension("auto_pad", AUTO_PAD, auto_pad_of),
        dims.Dimension("dilations", ("1", ">1"), dims.dilated),
        dims.Dimension("dilations x auto_pad", dims.product(("1", ">1"), AUTO_PAD),
                       dims.combo(dims.dilated, auto_pad_of)),
        dims.Dimension("diff_dst extent", ("floor", "ceil"), extent_of_dst),
        dims.Dimension("layout", ("NXC", "NCX"), dims.attr("data_format", "NXC")),
    ]


ENTRY = OpEntry(
    schema=onednn_maxpool_backward.SCHEMA,
    error_models={"diff_src": GradientRouting()},
    coverage=coverage, fuzz=None,
    layout_inputs=(0, 1),  # src and diff_dst are both tensors in the data_format layout
    summary="gradient of MaxPool: each diff_dst element routed to its window's maximum (ties: any admissible routing)",
)
