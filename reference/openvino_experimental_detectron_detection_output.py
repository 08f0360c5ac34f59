"""OpenVINO ExperimentalDetectronDetectionOutput-6 (detection/experimental-detectron-detection-output-6.rst): boxes
refined by class deltas, clipped, thresholded and suppressed per class, the top max_detections_per_image kept.

The text writes the decoding (its first formula names ``x1_new`` where x0_new is meant) but not what a value needs
after it: the NMS's IoU (no formula, no +1 convention), the clip's bounds, what class_agnostic_box_regression
removes, the order of the detections across classes, and it fills the rest "with undefined values". So every
element is unspecified; what the text defines is checked: the outputs' shapes ([max_detections_per_image, 4],
[max_detections_per_image] twice), their types (T, T_IND, T; T_IND "int64 or int32" with nothing choosing: int32,
the example's I32) and the inputs' shapes (docs/spec-notes.md, "OpenVINO proposals and detection outputs").
SpecViolation: rois not [R, 4], deltas not [R, 4 * num_classes], scores not [R, num_classes], im_info not [1, 3],
deltas_weights not 4 values, a negative count or threshold.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _regions as rg
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._regions import FLOATS
from .schema import Attribute, Port, Schema

OP = "ExperimentalDetectronDetectionOutput"
SCHEMA = Schema(
    "openvino", OP, (6,),
    attributes=(Attribute("score_threshold", "float", required=True),
                Attribute("nms_threshold", "float", required=True),
                Attribute("num_classes", "int", required=True),
                Attribute("post_nms_count", "int", required=True),
                Attribute("max_detections_per_image", "int", required=True),
                Attribute("class_agnostic_box_regression", "bool", default=False),
                Attribute("max_delta_log_wh", "float", required=True),
                Attribute("deltas_weights", "floats", required=True)),
    inputs=(Port("rois"), Port("deltas"), Port("scores"), Port("im_info")),
    outputs=(Port("boxes", rank_of=None), Port("classes", dtype="int32", rank_of=None),
             Port("scores", rank_of=None)),
    types=((0, FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = f"{OP}-6"


def _checked(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> dict[str, Any]:
    a = attributes_of(SCHEMA, 6, attributes)
    for name in ("score_threshold", "nms_threshold", "num_classes", "post_nms_count", "max_detections_per_image"):
        if not a[name] >= 0:
            raise SpecViolation(f"{LABEL}: {name} {a[name]} must be non-negative")
    weights = a["deltas_weights"]
    if isinstance(weights, str):  # an IR's "10.0,10.0,5.0,5.0", as the case loader keeps a float list's text
        try:
            weights = [float(w) for w in weights.split(",")]
        except ValueError:
            raise SpecViolation(f"{LABEL}: deltas_weights {weights!r} is no list of floats") from None
    weights = [weights] if isinstance(weights, int | float) else list(weights)
    if len(weights) != 4 or any(not w >= 0 for w in weights):
        raise SpecViolation(f"{LABEL}: deltas_weights {weights} are 4 non-negative values (dx, dy, log w, log h)")
    if len(shapes) != 4:
        raise SpecViolation(f"{LABEL} takes 4 inputs, got {len(shapes)}")
    rois, deltas, scores, info = (tuple(s) for s in shapes)
    n = a["num_classes"]
    if len(rois) != 2 or rois[1] != 4 or deltas != (rois[0], 4 * n) or scores != (rois[0], n) or info != (1, 3):
        raise SpecViolation(f"{LABEL}: rois {list(rois)}, deltas {list(deltas)}, scores {list(scores)}, im_info "
                            f"{list(info)} must be [R, 4], [R, 4 * num_classes], [R, num_classes], [1, 3] "
                            f"(num_classes {n})")
    return a


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    count = _checked(input_shapes, attributes)["max_detections_per_image"]
    return [(count, 4), (count,), (count,)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    shapes = output_shapes(since, [np.shape(x) for x in inputs], attributes)
    rg.one_float_type(LABEL, inputs)
    dtype = inputs[0].dtype
    outs = [np.full(shapes[0], np.nan, dtype), np.zeros(shapes[1], np.int32), np.full(shapes[2], np.nan, dtype)]
    return outs, [np.ones(s, bool) if np.prod(s) else None for s in shapes]
