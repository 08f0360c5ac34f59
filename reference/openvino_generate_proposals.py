"""OpenVINO GenerateProposals-9 (detection/generate-proposals-9.rst): per image, proposals from anchors and deltas,
sorted by score, the top pre_nms_count, small boxes removed, adaptive NMS, the top post_nms_count; the images'
proposals concatenated, their counts in the third output.

The text gives the steps and no formula for a box: no decoding of the deltas, no clip bounds (``normalized``
changes them without saying how), no IoU, no rule for "height or width < min_size". So the proposals themselves,
and how many survive, are open; what the text does fix is checked by the op's own judge (ops/_proposals.py) on the
outputs jointly:
  * ``rpnroisnum`` has one count per image, of ``roi_num_type``, each at most ``post_nms_count``, ``pre_nms_count``
    and the image's anchors; ``rpnrois`` is ``[sum of the counts, 4]`` of T, ``rpnscores`` ``[sum]`` of T;
  * an image's scores are its own input scores ("sorts all (proposal, score) pairs by score"; suppression removes
    pairs, it changes no score), in order from highest to lowest.
``evaluate`` gives those outputs' shapes at their largest (every image keeping ``min(post_nms_count,
pre_nms_count, anchors)`` proposals), every element unspecified: the number is the implementation's to find.
SpecViolation: im_info not [N, 3] or [N, 4], anchors not [H, W, A, 4], deltas not [N, 4A, H, W], scores not
[N, A, H, W], a negative count or threshold, nms_eta outside [0, 1].
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _regions as rg
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._regions import FLOATS
from .schema import Attribute, Port, Schema

OP = "GenerateProposals"
SCHEMA = Schema(
    "openvino", OP, (9,),
    attributes=(Attribute("min_size", "float", required=True), Attribute("nms_threshold", "float", required=True),
                Attribute("pre_nms_count", "int", required=True), Attribute("post_nms_count", "int", required=True),
                Attribute("normalized", "bool", default=True), Attribute("nms_eta", "float", default=1.0),
                Attribute("roi_num_type", "enum", default="i64", values=("i32", "i64"))),
    inputs=(Port("im_info"), Port("anchors"), Port("boxesdeltas"), Port("scores")),
    outputs=(Port("rpnrois", rank_of=None), Port("rpnscores", rank_of=None),
             Port("rpnroisnum", dtype="int64", dtype_attribute="roi_num_type", rank_of=None)),
    types=((0, FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = f"{OP}-9"


def checked(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> tuple[dict[str, Any], int, int]:
    """(attributes, images, the most proposals one image may keep)."""
    a = attributes_of(SCHEMA, 9, attributes)
    for name in ("min_size", "nms_threshold", "pre_nms_count", "post_nms_count"):
        if not a[name] >= 0:
            raise SpecViolation(f"{LABEL}: {name} {a[name]} must be non-negative")
    if not 0 <= a["nms_eta"] <= 1:
        raise SpecViolation(f"{LABEL}: nms_eta {a['nms_eta']} is outside [0, 1]")
    if len(shapes) != 4:
        raise SpecViolation(f"{LABEL} takes 4 inputs, got {len(shapes)}")
    info, anchors, deltas, scores = (tuple(s) for s in shapes)
    if len(anchors) != 4 or anchors[3] != 4 or len(scores) != 4:
        raise SpecViolation(f"{LABEL}: anchors {list(anchors)} must be [H, W, A, 4] and scores [N, A, H, W], got "
                            f"scores {list(scores)}")
    h, w, a_count = anchors[:3]
    n = scores[0]
    if scores != (n, a_count, h, w) or deltas != (n, 4 * a_count, h, w) or info not in ((n, 3), (n, 4)):
        raise SpecViolation(f"{LABEL}: im_info {list(info)}, deltas {list(deltas)}, scores {list(scores)} must be "
                            f"[N, 3 or 4], [N, 4A, H, W], [N, A, H, W] for anchors {list(anchors)}")
    return a, n, min(a["post_nms_count"], a["pre_nms_count"], h * w * a_count)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    """At their largest: the number of proposals is the implementation's (the op's judge reads the real one)."""
    _, n, most = checked(input_shapes, attributes)
    return [(n * most, 4), (n * most,), (n,)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    shapes = output_shapes(since, [np.shape(x) for x in inputs], attributes)
    rg.one_float_type(LABEL, inputs)
    count_type = np.int32 if attributes_of(SCHEMA, 9, attributes)["roi_num_type"] == "i32" else np.int64
    dtype = inputs[0].dtype
    outs = [np.full(shapes[0], np.nan, dtype), np.full(shapes[1], np.nan, dtype), np.zeros(shapes[2], count_type)]
    return outs, [np.ones(s, bool) if np.prod(s) else None for s in shapes]
