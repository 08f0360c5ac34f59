"""What the proposal ops' texts fix when they give no decoding, clip or IoU (GenerateProposals-9,
ExperimentalDetectronGenerateProposalsSingleImage-6): a proposal keeps its anchor's score ("sorts all (proposal,
score) pairs by score"; suppression removes pairs, it changes no score), and the kept pairs come from highest to
lowest. Both judges read their outputs jointly (``JointProposals``) with this one check."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.values import Comparison
from conformance.dtypes import dtype_mismatch, dtype_name


class JointProposals(ErrorModel):
    """A proposal op's outputs judged together: each output an array of its expected type, all ``count`` outputs
    given; then ``verdict`` (the op's own rules) on the output and every output of the run."""

    name = "proposals"
    bound = "exact"
    joint = True
    count = 0
    rule = ""

    def describe(self, policy: Any) -> str:
        return f"{self.name}: {self.rule}"

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Any, magnitude: Any,
              evidence: Evidence, outputs: list | None = None) -> Comparison:
        if not isinstance(actual, np.ndarray):
            return Comparison(False, f"{output.name}: backend returned {type(actual).__name__}, not an array")
        if dtype_name(actual.dtype) != dtype_name(expected.dtype):
            return Comparison(False, dtype_mismatch(expected, actual, output.name), elements=int(actual.size))
        found = list(outputs or [])
        if len(found) != self.count or not all(isinstance(o, np.ndarray) for o in found):
            return Comparison(False, f"{output.name}: the {self.count} outputs are judged together; got {len(found)}")
        return self.verdict(expected, actual, output, evidence, found)

    def verdict(self, expected: np.ndarray, actual: np.ndarray, output: OutputRule, evidence: Evidence,
                found: list[np.ndarray]) -> Comparison:
        raise NotImplementedError


def own_scores_highest_first(scores: np.ndarray, given: np.ndarray, where: str) -> str | None:
    """None when ``scores`` are some of ``given`` (the image's input scores) from highest to lowest, else why not."""
    own = given.reshape(-1).astype(scores.dtype)
    foreign = ~np.isin(scores, own)
    if foreign.any():
        return f"{where}: score {scores[foreign][0]!r} is none of its input scores"
    if np.isnan(scores).any() or (np.diff(scores.astype(np.float64)) > 0).any():
        return f"{where}: scores {scores[:8].tolist()}... are not from highest to lowest"
    return None
