"""OpenVINO ExperimentalDetectronGenerateProposalsSingleImage-6 (its reference module): the text gives no formula
for a proposal, so the outputs are judged jointly by what it fixes: the shapes and types, the kept proposals first
and "filled with zeroes" after them (at most min(post_nms_count, pre_nms_count, anchors) kept), and the kept
scores being the image's own input scores from highest to lowest (ops/_proposals.py); the boxes' values open."""

from __future__ import annotations

import numpy as np

from conformance.compare.evidence import Evidence, OutputRule
from conformance.compare.values import Comparison, not_comparable
from conformance.ops._proposals import JointProposals, own_scores_highest_first
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_experimental_detectron_generate_proposals_single_image as reference

RULE = "the kept proposals, then zeros; their scores the image's own, highest first; the boxes open"


class ZeroFilledProposals(JointProposals):
    count, rule = 2, RULE

    def verdict(self, expected: np.ndarray, actual: np.ndarray, output: OutputRule, evidence: Evidence,
                found: list[np.ndarray]) -> Comparison:
        unusable = not_comparable(expected, actual, output.name)
        if unusable is not None:
            return unusable
        if any(o.shape[:1] != expected.shape[:1] for o in found):
            return Comparison(False, f"{output.name}: rois and scores are judged together, one row each")
        rois, scores = found
        # the kept proposals are the rows before the trailing zero scores (an input score of exactly 0 would be
        # taken for the fill: harmless, its box must then be zeros too)
        zero = scores == 0
        kept = len(zero) - int(np.argmin(zero[::-1])) if not zero.all() else 0
        a = evidence.attributes or {}
        most = min(int(a["post_nms_count"]), int(a["pre_nms_count"]), int(evidence.inputs[1].shape[0]))
        if output.label == "output_scores":
            why = (f"{kept} proposals where at most {most} may be kept" if kept > most else
                   own_scores_highest_first(scores[:kept], evidence.inputs[3], "the image"))
        else:
            filled = (rois[kept:] == 0).all(axis=1)
            why = (f"row {kept + int(np.argmin(filled))} past the {kept} kept proposals is "
                   f"{rois[kept + int(np.argmin(filled))].tolist()}, not zeros (the text fills the rest with zeroes)"
                   if not filled.all() else None if np.isfinite(rois[:kept]).all() else "a kept box is not finite")
        if why:
            return Comparison(False, f"{output.name}: {why}", mismatches=1, elements=int(actual.size))
        open_values = int(rois[:kept].size) if output.label == "output_rois" else 0
        return Comparison(True, f"{output.name}: {kept} proposals, then zeros", elements=int(actual.size),
                          unspecified=open_values)


ENTRY = OpEntry(schema=reference.SCHEMA, error_models={"output_rois": ZeroFilledProposals(),
                                                        "output_scores": ZeroFilledProposals()},
                ir_layer="ExperimentalDetectronGenerateProposalsSingleImage", layout_inputs=(),
                summary="proposals of one image from anchors and deltas (counts, zero fill and scores)")
