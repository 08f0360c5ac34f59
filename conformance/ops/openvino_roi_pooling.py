"""OpenVINO ROIPooling-1 (reference/openvino_roi_pooling.py holds the semantics and its readings). ``max`` selects
an input element: judged exactly. ``bilinear`` is one bilinear sample per bin: the averaging bound,
(K + 2)·u·magnitude + 1 ulp with K = 7 (four products of a two-rounding weight, three additions) and no rounding
more (no division), the magnitude carrying the coordinate's error (32·u·L·max|tap|; docs/spec-notes.md)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.tolerance import Policy
from conformance.compare.values import Comparison, compare
from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_roi_pooling


class ByMethod(ErrorModel):
    """``exact`` for the max method (a selection), the averaging bound for bilinear samples."""

    name = "roi-pooling"
    bound = "average"

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Policy | None,
              magnitude: np.ndarray | None, evidence: Evidence) -> Comparison:
        if policy is not None and (evidence.attributes or {}).get("method", "max") == "max":
            return compare(expected, actual, dataclasses.replace(policy, model="exact"), None, output.unspecified,
                           name=output.name)
        return compare(expected, actual, policy, magnitude, output.unspecified, name=output.name)

    def describe(self, policy: Policy | None) -> str:
        return f"max: exact; bilinear: {policy.describe()}" if policy is not None else "max: exact; bilinear: average"


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("method", openvino_roi_pooling.METHODS, dims.attr("method", "max"))]


ENTRY = OpEntry(schema=openvino_roi_pooling.SCHEMA, error_models={"output": ByMethod()}, ir_layer="ROIPooling",
                coverage=coverage, layout_inputs=(), summary="max or a bilinear sample of each bin of each box")
