"""How ExperimentalDetectronTopKROIs' output is judged: rows whose probability several ROIs share may hold any of them,
each once (reference/openvino_experimental_detectron_topk_rois.py ``tie_groups``); every other row exactly; the rows
past the input's ROIs are undefined (not compared)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.values import Comparison, not_comparable
from conformance.dtypes import dtype_mismatch, dtype_name


def check(ties: Any, actual: np.ndarray) -> str | None:
    """None when ``actual`` holds, for each probability group, a distinct choice of its candidate ROIs."""
    for rows, candidates in ties.groups:
        pool = [ties.rois[i].astype(np.float64) for i in candidates]
        for row in rows:
            got = actual[row].astype(np.float64)
            hit = next((j for j, roi in enumerate(pool) if np.array_equal(roi, got)), None)
            if hit is None:
                return (f"row {row}: {got.tolist()} is none of the ROIs of its probability "
                        f"({len(candidates)} candidate(s), e.g. {pool[0].tolist() if pool else []})")
            pool.pop(hit)
    return None


class TiedRois(ErrorModel):
    name = "tied-rois"
    bound = "exact"

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Any, magnitude: Any,
              evidence: Evidence) -> Comparison:
        failed = not_comparable(expected, actual, output.name)
        if failed is not None:
            return failed
        if dtype_name(actual.dtype) != dtype_name(expected.dtype):
            return Comparison(False, dtype_mismatch(expected, actual, output.name), elements=int(expected.size))
        ties = evidence.tie_groups()
        why = check(ties, actual)
        free = len(ties.free) * 4
        if why is not None:
            return Comparison(False, f"{output.name}: {why}", mismatches=1, elements=int(actual.size))
        return Comparison(True, f"{output.name}: every row one of its probability's ROIs", elements=int(actual.size),
                          unspecified=free)

    def describe(self, policy: Any) -> str:
        return f"{self.name}: exact, equal probabilities' ROIs in any order"
