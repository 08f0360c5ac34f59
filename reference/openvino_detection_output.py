"""OpenVINO DetectionOutput-1 and DetectionOutput-8 (detection/detectionoutput-1.rst, detectionoutput-8.rst): SSD's
detections, 7-tuples [batch_id, class_id, confidence, x_1, y_1, x_2, y_2], a batch_id of -1 ending the output.

The texts cite SSD and describe it ("predicts the offsets relative to the default box shapes") without a formula:
code_type names Caffe's CENTER_SIZE and CORNER decodings without writing them, the NMS's IoU, the confidence
threshold's comparison, top_k / keep_top_k's order across classes and where the -1 tuple stands are not given. No
output element is defined: the reference checks the shapes (the text's three rules on keep_top_k[0] and top_k),
the types and what the texts forbid, and leaves every element unspecified (docs/spec-notes.md, "OpenVINO proposals
and detection outputs"). -8 drops num_classes: ``class_preds.shape[-1] // num_prior_boxes``.
num_prior_boxes is read from the proposals: their last dimension / prior_box_size (4 normalized, else 5).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _regions as rg
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._regions import FLOATS
from .schema import Attribute, Port, Schema

OP = "DetectionOutput"
CODE_TYPES = ("caffe.PriorBoxParameter.CENTER_SIZE", "caffe.PriorBoxParameter.CORNER")
SCHEMA = Schema(
    "openvino", OP, (1, 8),
    attributes=(Attribute("num_classes", "int", required=True, until=7),
                Attribute("background_label_id", "int", default=0), Attribute("top_k", "int", default=-1),
                Attribute("variance_encoded_in_target", "bool", default=False),
                Attribute("keep_top_k", "ints", required=True),
                Attribute("code_type", "enum", default="caffe.PriorBoxParameter.CORNER", values=CODE_TYPES),
                Attribute("share_location", "bool", default=True), Attribute("nms_threshold", "float", required=True),
                Attribute("confidence_threshold", "float", default=0.0),
                Attribute("clip_after_nms", "bool", default=False), Attribute("clip_before_nms", "bool", default=False),
                Attribute("decrease_label_id", "bool", default=False), Attribute("normalized", "bool", default=False),
                Attribute("input_height", "int", default=1), Attribute("input_width", "int", default=1),
                Attribute("objectness_score", "float", default=0.0)),
    inputs=(Port("box_logits"), Port("class_preds"), Port("proposals"), Port("aux_class_preds", optional=True),
            Port("aux_box_preds", optional=True)),
    outputs=(Port("output", rank_of=None),),
    types=((0, FLOATS),),
)
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"{OP}-{since}"
    a = attributes_of(SCHEMA, since, attributes)
    keep = [a["keep_top_k"]] if isinstance(a["keep_top_k"], int) else list(a["keep_top_k"])
    if not keep:
        raise SpecViolation(f"{label}: keep_top_k is a non-empty list of integers")
    if a["input_height"] < 1 or a["input_width"] < 1 or not a["objectness_score"] >= 0:
        raise SpecViolation(f"{label}: input_height/input_width positive, objectness_score non-negative")
    if len(input_shapes) not in (3, 5):
        raise SpecViolation(f"{label} takes 3 inputs or 5 (the two additional ones together), got {len(input_shapes)}")
    box, cls, prop = (tuple(s) for s in input_shapes[:3])
    if len(box) != 2 or len(cls) != 2 or len(prop) != 3 or cls[0] != box[0]:
        raise SpecViolation(f"{label}: box_logits {list(box)}, class_preds {list(cls)} are [N, ...], proposals "
                            f"{list(prop)} 3-D")
    n, size = box[0], 4 if a["normalized"] else 5
    if prop[0] not in (1, n) or prop[1] != (1 if a["variance_encoded_in_target"] else 2) or prop[2] % size:
        raise SpecViolation(f"{label}: proposals {list(prop)} must be [1 or N, 1 (variance in target) or 2, "
                            f"num_prior_boxes * {size}]")
    priors = prop[2] // size
    if since >= 8:
        if priors == 0 or cls[1] % priors:
            raise SpecViolation(f"{label}: class_preds {list(cls)} is not [N, num_prior_boxes * num_classes] for "
                                f"{priors} prior boxes")
        classes = cls[1] // priors
    else:
        classes = a["num_classes"]
        if classes < 1 or cls[1] != priors * classes:
            raise SpecViolation(f"{label}: class_preds {list(cls)} must be [N, {priors} * num_classes {classes}]")
    loc = 1 if a["share_location"] else classes
    if box[1] != priors * loc * 4:
        raise SpecViolation(f"{label}: box_logits {list(box)} must be [N, num_prior_boxes * num_loc_classes * 4] = "
                            f"[{n}, {priors * loc * 4}]")
    if len(input_shapes) == 5 and (tuple(input_shapes[3]) != (n, priors * 2) or tuple(input_shapes[4]) != box):
        raise SpecViolation(f"{label}: the additional inputs must be [N, num_prior_boxes * 2] and box_logits' shape")
    if keep[0] > 0:
        rows = n * keep[0]
    elif keep[0] == -1 and a["top_k"] > 0:
        rows = n * a["top_k"] * classes
    else:
        rows = n * classes * priors
    return [(1, 1, rows, 7)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    (shape,) = output_shapes(since, [np.shape(x) for x in inputs], attributes)
    rg.one_float_type(f"{OP}-{since}", inputs)
    return [np.full(shape, np.nan).astype(inputs[0].dtype)], [np.ones(shape, bool)]
