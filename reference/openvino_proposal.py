"""OpenVINO Proposal-1 and Proposal-4 (detection/proposal-1.rst, proposal-4.rst): region proposals from anchor
scores and deltas, NMS, the top post_nms_topn.

The texts give the steps and no formula for any value: anchor sizes "are calculated from base_size with scale and
ratio" (how is not said), the anchors are "pinned ... according to ... four deltas" (no decoding), which of the 2*K
score channels is the foreground is not said, box_size_scale / box_coordinate_scale / framework change the decoding
without saying how, "box size" under min_size is neither width, height nor area, and nms_thresh is described as a
score threshold ("boxes with prediction probability less than 0.5 are filtered out") while step 6 uses it as an IoU
threshold. So no output element is defined: the reference checks the shapes ([batch_size * post_nms_topn, 5]; -4's
probabilities [batch_size * post_nms_topn]), the types and what the texts forbid, and leaves every element
unspecified (docs/spec-notes.md, "OpenVINO proposals and detection outputs"). Where the -1 terminator stands
depends on the undefined values too.
SpecViolation: inputs not [N, 2K, H, W] / [N, 4K, H, W] with K = len(ratio) * len(scale), an image_shape not 1-D
of 3 or 4 elements, a non-positive base_size / topn / feat_stride / min_size, framework other than "" / tensorflow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _regions as rg
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._regions import FLOATS
from .schema import Attribute, Port, Schema

OP = "Proposal"
FRAMEWORKS = ("", "tensorflow")
SCHEMA = Schema(
    "openvino", OP, (1, 4),
    attributes=(Attribute("base_size", "int", required=True), Attribute("pre_nms_topn", "int", required=True),
                Attribute("post_nms_topn", "int", required=True), Attribute("nms_thresh", "float", required=True),
                Attribute("feat_stride", "int", required=True), Attribute("min_size", "int", required=True),
                Attribute("ratio", "floats", required=True), Attribute("scale", "floats", required=True),
                Attribute("clip_before_nms", "bool", default=True), Attribute("clip_after_nms", "bool", default=False),
                Attribute("normalize", "bool", default=False), Attribute("box_size_scale", "float", default=1.0),
                Attribute("box_coordinate_scale", "float", default=1.0),
                Attribute("framework", "enum", default="", values=FRAMEWORKS)),
    inputs=(Port("class_probs"), Port("bbox_deltas"), Port("image_shape")),
    outputs=(Port("proposals", rank_of=None), Port("probabilities", rank_of=None, since=4)),
    types=((0, FLOATS),),
)
VERSIONS = SCHEMA.versions


def _count(value: Any, name: str, label: str) -> int:
    if isinstance(value, str):  # an IR's "2.67": one value the loader kept as text
        try:
            value = [float(v) for v in value.split(",")]
        except ValueError:
            raise SpecViolation(f"{label}: {name} {value!r} must be a list of floating-point numbers") from None
    values = [value] if isinstance(value, int | float) and not isinstance(value, bool) else list(value)
    if not values or any(isinstance(v, bool) or not isinstance(v, int | float) for v in values):
        raise SpecViolation(f"{label}: {name} {value!r} must be a list of floating-point numbers")
    return len(values)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"{OP}-{since}"
    a = attributes_of(SCHEMA, since, attributes)
    for name in ("base_size", "pre_nms_topn", "post_nms_topn", "feat_stride", "min_size"):
        if a[name] < 1:
            raise SpecViolation(f"{label}: {name} {a[name]} must be a positive integer")
    for name in ("nms_thresh", "box_size_scale", "box_coordinate_scale"):
        if not a[name] > 0:
            raise SpecViolation(f"{label}: {name} {a[name]} must be a positive floating-point number")
    k = _count(a["ratio"], "ratio", label) * _count(a["scale"], "scale", label)
    if len(input_shapes) != 3:
        raise SpecViolation(f"{label} takes 3 inputs, got {len(input_shapes)}")
    probs, deltas, image = (tuple(s) for s in input_shapes)
    if len(probs) != 4 or probs[1] != 2 * k or deltas != (probs[0], 4 * k, probs[2], probs[3]):
        raise SpecViolation(f"{label}: class_probs {list(probs)} and bbox_deltas {list(deltas)} must be "
                            f"[N, 2K, H, W] and [N, 4K, H, W] with K = len(ratio) * len(scale) = {k}")
    if image not in ((3,), (4,)):
        raise SpecViolation(f"{label}: image_shape has shape {list(image)}; the text defines 3 or 4 elements")
    rows = probs[0] * a["post_nms_topn"]
    return [(rows, 5), (rows,)] if since >= 4 else [(rows, 5)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    shapes = output_shapes(since, [np.shape(x) for x in inputs], attributes)
    rg.one_float_type(f"{OP}-{since}", inputs)
    outs = [np.full(s, np.nan).astype(inputs[0].dtype) for s in shapes]
    return outs, [np.ones(s, bool) for s in shapes]
