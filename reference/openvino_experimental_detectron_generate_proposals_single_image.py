"""OpenVINO ExperimentalDetectronGenerateProposalsSingleImage-6
(detection/experimental-detectron-generate-proposals-single-image-6.rst): proposals from anchors and deltas, NMS,
the top post_nms_count, zero-filled.

The text gives the steps and no formula for a value: "Transforms anchors into proposals using deltas" (no decoding),
"transposes and reshapes ... into the same order as the anchors" (the anchors' order is not given), the NMS's IoU
(no formula, no offset convention) and which box a tie keeps. So the ROIs and scores are unspecified wherever a
proposal may stand; what the text defines: the shapes ([post_nms_count, 4], [post_nms_count]), the types, and the
zero fill - "If total number of proposals is less than post_nms_count returns output tensors filled with zeroes":
with no proposal at all (pre_nms_count 0, or no anchor) every element is 0 (docs/spec-notes.md, "OpenVINO proposals
and detection outputs").
SpecViolation: im_info not [3], anchors not [H*W*C, 4], deltas not [4C, H, W], scores not [C, H, W], a negative
count or threshold.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _regions as rg
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._regions import FLOATS
from .schema import Attribute, Port, Schema

OP = "ExperimentalDetectronGenerateProposalsSingleImage"
SCHEMA = Schema(
    "openvino", OP, (6,),
    attributes=(Attribute("min_size", "float", required=True), Attribute("nms_threshold", "float", required=True),
                Attribute("pre_nms_count", "int", required=True), Attribute("post_nms_count", "int", required=True)),
    inputs=(Port("im_info"), Port("anchors"), Port("deltas"), Port("scores")),
    outputs=(Port("output_rois", rank_of=None), Port("output_scores", rank_of=None)),
    types=((0, FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = f"{OP}-6"


def _checked(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """(attributes, number of anchors)."""
    a = attributes_of(SCHEMA, 6, attributes)
    for name in ("min_size", "nms_threshold", "pre_nms_count", "post_nms_count"):
        if not a[name] >= 0:
            raise SpecViolation(f"{LABEL}: {name} {a[name]} must be non-negative")
    if len(shapes) != 4:
        raise SpecViolation(f"{LABEL} takes 4 inputs, got {len(shapes)}")
    info, anchors, deltas, scores = (tuple(s) for s in shapes)
    if info != (3,):
        raise SpecViolation(f"{LABEL}: im_info has shape {list(info)}; the text defines 3 elements")
    if len(scores) != 3 or deltas != (4 * scores[0], scores[1], scores[2]):
        raise SpecViolation(f"{LABEL}: deltas {list(deltas)} and scores {list(scores)} must be [4C, H, W], [C, H, W]")
    c, h, w = scores
    if anchors != (h * w * c, 4):
        raise SpecViolation(f"{LABEL}: anchors {list(anchors)} must be [height * width * number_of_channels, 4] = "
                            f"[{h * w * c}, 4]")
    return a, h * w * c


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    a, _ = _checked(input_shapes, attributes)
    return [(a["post_nms_count"], 4), (a["post_nms_count"],)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    a, anchors = _checked([np.shape(x) for x in inputs], attributes)
    rg.one_float_type(LABEL, inputs)
    shapes = output_shapes(since, [np.shape(x) for x in inputs], attributes)
    outs = [np.zeros(s, inputs[0].dtype) for s in shapes]
    if a["pre_nms_count"] == 0 or anchors == 0:  # no proposal: the zero fill is all the text leaves
        return outs, [None, None]
    for out in outs:
        out[...] = np.nan
    return outs, [np.ones(s, bool) for s in shapes]
