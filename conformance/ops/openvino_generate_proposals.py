"""OpenVINO GenerateProposals-9 (reference/openvino_generate_proposals.py holds what its text fixes). The number of
proposals is the implementation's (no decoding, clip or IoU in the text), so the outputs are judged jointly by what
the text does fix, never against the reference's placeholder values: the counts (one per image, of roi_num_type,
each at most post_nms_count, pre_nms_count and the image's anchors, summing to the rows of rpnrois and rpnscores),
the types and ranks, and each image's scores being its own input scores from highest to lowest.
"""

from __future__ import annotations

import numpy as np

from conformance.compare.evidence import Evidence, OutputRule
from conformance.compare.values import Comparison
from conformance.ops._proposals import JointProposals, own_scores_highest_first
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_generate_proposals

RULE = ("counts, shapes and types; each image's scores its own input scores, highest first; the boxes and how "
        "many survive open")


class Proposals(JointProposals):
    count, rule = 3, RULE

    def verdict(self, expected: np.ndarray, actual: np.ndarray, output: OutputRule, evidence: Evidence,
                found: list[np.ndarray]) -> Comparison:
        why = _why(evidence, *found, which=[rule.name for rule in evidence.outputs].index(output.name))
        if why:
            return Comparison(False, f"{output.name}: {why}", mismatches=1, elements=int(actual.size))
        open_values = int(actual.size) if actual.ndim == 2 else 0  # the boxes: their values are the runtime's
        return Comparison(True, f"{output.name}: one admissible result", elements=int(actual.size),
                          unspecified=open_values)


def _why(evidence: Evidence, rois: np.ndarray, scores: np.ndarray, counts: np.ndarray, which: int) -> str | None:
    """None when the outputs are one result the text admits, as far as output ``which`` is concerned."""
    attributes = evidence.attributes or {}
    images, anchors = evidence.inputs[3].shape[0], int(np.prod(evidence.inputs[1].shape[:3]))
    most = min(int(attributes["post_nms_count"]), int(attributes["pre_nms_count"]), anchors)
    if counts.shape != (images,) or counts.dtype.kind not in "iu":
        return f"rpnroisnum has shape {list(counts.shape)}, not one count per image ({images})" if which == 2 else None
    total = int(counts.sum())
    if which == 2:
        if (counts < 0).any() or (counts > most).any():
            return f"counts {counts.tolist()} outside [0, {most}] (post_nms_count, pre_nms_count, anchors)"
        return None if rois.shape[:1] == (total,) else f"counts sum to {total}, rpnrois has {rois.shape[0]} rows"
    if which == 0:
        if rois.ndim != 2 or rois.shape != (total, 4):
            return f"shape {list(rois.shape)}, not [{total}, 4] (the counts' sum, a box per row)"
        return None if np.isfinite(rois).all() else "a box holds a value that is not finite"
    if scores.shape != (total,):
        return f"shape {list(scores.shape)}, not [{total}] (the counts' sum)"
    start = 0
    for image, count in enumerate(counts.tolist()):
        why = own_scores_highest_first(scores[start:start + count], evidence.inputs[3][image], f"image {image}")
        if why:
            return why
        start += count
    return None


ENTRY = OpEntry(schema=openvino_generate_proposals.SCHEMA, ir_layer="GenerateProposals", layout_inputs=(),
                error_models={name: Proposals() for name in ("rpnrois", "rpnscores", "rpnroisnum")},
                summary="proposals from anchors and deltas per image, suppressed, concatenated (counts and scores)")
