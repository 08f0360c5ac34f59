"""What the OpenVINO CTC pages share: best-path decoding (CTCGreedyDecoder-1, CTCGreedyDecoderSeqLen-6) and the CTC
loss over aligned paths (CTCLoss-4).

Decoding: per time step the most probable class (the first of several equal maxima is no rule of the texts: a
sequence whose best path has a tie is unspecified), then repeated classes merged (``merge_repeated``: consecutive
equal classes of the path, blanks included, so "ABB*B*B" gives "ABBB"), then blanks removed.

The loss: -ln Σ over the paths S of length L_i aligned with the processed target of Π_t p(c_t), by dynamic
programming over the target's positions in log space (the page's Note 2), in float64. With ``ctc_merge_repeated``
a path decodes by merging repeats then removing blanks (the usual CTC lattice with a blank between labels); without,
by removing blanks only (each non-blank step emits one label).
"""

from __future__ import annotations

import numpy as np


def best_path(scores: np.ndarray, length: int) -> tuple[list[int], bool]:
    """The per-step most probable classes of the first ``length`` steps, and whether a step had a tie."""
    path, tie = [], False
    for t in range(length):
        row = scores[t]
        top = np.max(row)
        hits = np.flatnonzero(row == top)
        tie |= len(hits) > 1 or np.isnan(top)
        path.append(int(hits[0]) if len(hits) else 0)
    return path, bool(tie)


def collapse(path: list[int], blank: int, merge: bool) -> list[int]:
    """Repeats merged (when ``merge``), then blanks removed."""
    out, previous = [], None
    for c in path:
        if not (merge and c == previous) and c != blank:
            out.append(c)
        previous = c
    return out


def target(labels: list[int], collapse_repeated: bool, unique: bool) -> list[int]:
    """CTCLoss's processed target: repeats merged (preprocess_collapse_repeated), then the unique elements in the
    order of their first occurrence (unique)."""
    out: list[int] = []
    for c in labels:
        if not (collapse_repeated and out and out[-1] == c):
            out.append(c)
    if unique:
        seen: list[int] = []
        for c in out:
            if c not in seen:
                seen.append(c)
        out = seen
    return out


def log_softmax(logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ln p along the last axis, ln Σ e^(x − max)) in float64."""
    x = logits.astype(np.float64)
    top = np.max(x, axis=-1, keepdims=True)
    log_sum = np.log(np.sum(np.exp(x - top), axis=-1, keepdims=True))
    return x - top - log_sum, log_sum


def loss(logp: np.ndarray, labels: list[int], blank: int, merge: bool) -> float:
    """-ln Σ_S p(S) over the paths of len(logp) steps that decode to ``labels``; +inf where none does."""
    steps = logp.shape[0]
    if merge:
        states = [blank]
        for c in labels:
            states += [c, blank]
        alpha = np.full(len(states), -np.inf)
        if steps == 0:
            return 0.0 if not labels else np.inf
        alpha[0] = logp[0, blank]
        if len(states) > 1:
            alpha[1] = logp[0, states[1]]
        for t in range(1, steps):
            new = np.full_like(alpha, -np.inf)
            for s, c in enumerate(states):
                options = [alpha[s]] + ([alpha[s - 1]] if s >= 1 else [])
                if s >= 2 and c != blank and c != states[s - 2]:
                    options.append(alpha[s - 2])
                new[s] = np.logaddexp.reduce(options) + logp[t, c]
            alpha = new
        final = [alpha[-1]] + ([alpha[-2]] if len(states) > 1 else [])
        total = np.logaddexp.reduce(final)
    else:
        # alpha[k]: the first t steps emitted the first k labels (a blank emits nothing)
        alpha = np.full(len(labels) + 1, -np.inf)
        alpha[0] = 0.0
        for t in range(steps):
            new = alpha + logp[t, blank]
            for k, c in enumerate(labels):
                if c != blank:
                    new[k + 1] = np.logaddexp(new[k + 1], alpha[k] + logp[t, c])
            alpha = new
        total = alpha[-1]
    return float(-total)
