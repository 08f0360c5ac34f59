"""OpenVINO ExperimentalDetectronROIFeatureExtractor-6 (detection/experimental-detectron-roi-feature-extractor-6.rst):
"the ROIAlign operation applied over a feature pyramid".

``output[i] = ROIAlign(inputPyramid[j], rois[i])`` with ``j = floor(2 + log2(sqrt(w * h) / 224))``, ``w``, ``h``
the ROI's width ``x2 - x1`` and height ``y2 - y1``. Read as printed: ``j`` indexes the pyramid inputs from 0 (the
formula's ``inputPyramid[j]``); the page's "2 is the pyramid starting level" could make it a level number (input
``j - 2``) and FPN, which it cites, uses 4 and clamps: docs/spec-notes.md. ROIAlign is ROIAlign-3's (its reference
module): mode avg, pooled output_size x output_size, spatial_scale ``1 / pyramid_scales[j]``, sampling_ratio as
given (0 adaptive). Unspecified: a ROI whose j is outside the pyramid (the text does not clamp), whose
``2 + log2(...)`` is within 1e-6 of an integer (the floor flips within rounding), ROIAlign-3's own unspecified
elements, and every feature with aligned true ("add offset (-0.5) to ROIs sizes": no formula says where the
offset goes). The second output, "reordered ROIs according to their mapping to the pyramid levels", has no order
the text defines (which level first, the order within one): shape and type only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _regions as rg
from . import openvino_roi_align as roi_align
from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import Attribute, Port, Schema

OP = "ExperimentalDetectronROIFeatureExtractor"
SCHEMA = Schema(
    "openvino", OP, (6,),
    attributes=(Attribute("output_size", "int", required=True), Attribute("sampling_ratio", "int", required=True),
                Attribute("pyramid_scales", "ints", required=True), Attribute("aligned", "bool", default=False)),
    inputs=(Port("rois"), Port("pyramid_level_0"), Port("pyramid_level_1", optional=True),
            Port("pyramid_level_2", optional=True), Port("pyramid_level_3", optional=True),
            Port("pyramid_level_4", optional=True), Port("pyramid_level_5", optional=True)),
    outputs=(Port("output_rois_features", rank_of=None), Port("output_rois", rank_of=None)),
    types=((0, rg.FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = f"{OP}-6"


def _checked(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> dict[str, Any]:
    a = attributes_of(SCHEMA, 6, attributes)
    if a["output_size"] < 1 or a["sampling_ratio"] < 0:
        raise SpecViolation(f"{LABEL}: output_size {a['output_size']} must be positive, sampling_ratio "
                            f"{a['sampling_ratio']} non-negative")
    scales = [a["pyramid_scales"]] if isinstance(a["pyramid_scales"], int) else list(a["pyramid_scales"])
    if not scales or any(isinstance(s, bool) or int(s) < 1 for s in scales):
        raise SpecViolation(f"{LABEL}: pyramid_scales {scales} must be positive integers")
    a["pyramid_scales"] = [int(s) for s in scales]
    if len(shapes) < 2:
        raise SpecViolation(f"{LABEL}: takes the ROIs and at least one pyramid layer, got {len(shapes)} input(s)")
    rois, layers = tuple(shapes[0]), [tuple(s) for s in shapes[1:]]
    if len(rois) != 2 or rois[1] != 4:
        raise SpecViolation(f"{LABEL}: the ROIs have shape {list(rois)}; the text defines [number_of_ROIs, 4]")
    if any(len(s) != 4 or s[0] != 1 or s[1] != layers[0][1] for s in layers):
        raise SpecViolation(f"{LABEL}: pyramid layers {[list(s) for s in layers]} must be [1, C, H, W] of one C")
    # the page's example lists 5 scales for 4 layers (the 5th level feeds no input): more scales than layers pass
    if len(scales) < len(layers):
        raise SpecViolation(f"{LABEL}: {len(layers)} pyramid layers and {len(scales)} pyramid_scales")
    return a


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    a = _checked(input_shapes, attributes)
    n, c, s = input_shapes[0][0], input_shapes[1][1], a["output_size"]
    return [(n, c, s, s), (n, 4)]


def level(roi: np.ndarray) -> tuple[int, bool]:
    """(j, exact): the text's PyramidLevelMapper in float64; exact False where the floor's argument lies within
    1e-6 of an integer (an implementation's rounding may flip it) or the ROI has no area (log2 of 0)."""
    x1, y1, x2, y2 = (float(v) for v in roi)
    area = (x2 - x1) * (y2 - y1)
    if not area > 0:
        return -1, False
    value = 2 + math.log2(math.sqrt(area) / 224)
    return math.floor(value), abs(value - round(value)) > 1e-6


def _pool(inputs: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, unspecified, magnitude) in float64."""
    a = _checked([np.shape(x) for x in inputs], attributes)
    t = rg.dtype_name(inputs[0])
    if t not in rg.FLOATS or any(rg.dtype_name(x) != t for x in inputs):
        raise SpecViolation(f"{LABEL}: the inputs have types {[rg.dtype_name(x) for x in inputs]}; all are one T, "
                            "a floating-point type")
    rois, layers = inputs[0], inputs[1:]
    if not np.isfinite(rois.astype(np.float64)).all():
        raise SpecViolation(f"{LABEL}: a ROI holds a non-finite coordinate")
    (shape, _) = output_shapes(6, [np.shape(x) for x in inputs], attributes)
    out, mask, mag = np.full(shape, np.nan), np.ones(shape, bool), np.zeros(shape)
    for i, roi in enumerate(rois):
        j, exact = level(roi)
        if not exact or not 0 <= j < len(layers) or a["aligned"]:
            continue
        attrs = {"pooled_h": a["output_size"], "pooled_w": a["output_size"], "sampling_ratio": a["sampling_ratio"],
                 "spatial_scale": 1.0 / a["pyramid_scales"][j], "mode": "avg"}
        args = [layers[j], roi[None], np.zeros(1, np.int64)]
        (y,), (unspecified,) = roi_align.evaluate(3, args, attrs)
        out[i] = y[0].astype(np.float64)
        mask[i] = unspecified[0] if unspecified is not None else False
        mag[i] = roi_align.magnitude(3, args, attrs)[0][0]
    return out, mask, mag


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    out, mask, _ = _pool(inputs, attributes)
    rois = np.full(inputs[0].shape, np.nan).astype(inputs[0].dtype)
    return [np.where(mask, np.nan, out).astype(inputs[0].dtype), rois], [mask, np.ones(rois.shape, bool)]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """ROIAlign-3's K (one sample's arithmetic); the samples' count and coordinates are in ``magnitude``."""
    return roi_align.window_elements(3, input_shapes, attributes)


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [_pool(inputs, attributes)[2], np.zeros(inputs[0].shape)]
