"""What the proposal ops' texts fix when they give no decoding, clip or IoU (GenerateProposals-9,
ExperimentalDetectronGenerateProposalsSingleImage-6): a proposal keeps its anchor's score ("sorts all (proposal,
score) pairs by score"; suppression removes pairs, it changes no score), and the kept pairs come from highest to
lowest. Both judges read their outputs jointly with this one check."""

from __future__ import annotations

import numpy as np


def own_scores_highest_first(scores: np.ndarray, given: np.ndarray, where: str) -> str | None:
    """None when ``scores`` are some of ``given`` (the image's input scores) from highest to lowest, else why not."""
    own = given.reshape(-1).astype(scores.dtype)
    foreign = ~np.isin(scores, own)
    if foreign.any():
        return f"{where}: score {scores[foreign][0]!r} is none of its input scores"
    if np.isnan(scores).any() or (np.diff(scores.astype(np.float64)) > 0).any():
        return f"{where}: scores {scores[:8].tolist()}... are not from highest to lowest"
    return None
