"""OpenVINO ExperimentalDetectronDetectionOutput-6 (reference/openvino_experimental_detectron_detection_output.py):
its text leaves every value open (no NMS IoU, clip bounds or order), so the reference gives the shapes and types it
defines, every element unspecified, and refuses what it forbids."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference

OP = "ExperimentalDetectronDetectionOutput"
ATTRIBUTES = {"score_threshold": 0.05, "nms_threshold": 0.5, "num_classes": 3, "post_nms_count": 20,
              "max_detections_per_image": 7, "max_delta_log_wh": 4.1, "deltas_weights": [10.0, 10.0, 5.0, 5.0]}


def _inputs(rois=6, classes=3, dtype=np.float32):
    rng = np.random.default_rng(0)
    return [rng.uniform(0, 60, (rois, 4)).astype(dtype), rng.standard_normal((rois, 4 * classes)).astype(dtype),
            rng.uniform(0, 1, (rois, classes)).astype(dtype), np.array([[64, 64, 1]], dtype)]


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_shapes_and_types_and_nothing_else(dtype):
    found = reference.evaluate("openvino", OP, 6, _inputs(dtype=dtype), ATTRIBUTES)
    boxes, classes, scores = found.outputs
    assert (boxes.shape, classes.shape, scores.shape) == ((7, 4), (7,), (7,))
    assert (boxes.dtype, classes.dtype, scores.dtype) == (np.dtype(dtype), np.dtype(np.int32), np.dtype(dtype))
    assert all(mask.all() for mask in found.unspecified)
    # an IR's text list is the same attribute
    text = {**ATTRIBUTES, "deltas_weights": "10.0,10.0,5.0,5.0"}
    assert [o.shape for o in reference.evaluate("openvino", OP, 6, _inputs(), text).outputs] == [(7, 4), (7,), (7,)]


def test_no_detections_are_three_empty_outputs():
    found = reference.evaluate("openvino", OP, 6, _inputs(), {**ATTRIBUTES, "max_detections_per_image": 0})
    assert [o.size for o in found.outputs] == [0, 0, 0] and found.unspecified == [None, None, None]


@pytest.mark.parametrize(("change", "shapes"), [
    ({}, [(6, 4), (6, 10), (6, 3), (1, 3)]),
    ({}, [(6, 4), (6, 12), (6, 2), (1, 3)]),
    ({}, [(6, 4), (6, 12), (6, 3), (3,)]),
    ({}, [(6, 4), (5, 12), (5, 3), (1, 3)]),
    ({"deltas_weights": [10.0, 10.0, 5.0]}, [(6, 4), (6, 12), (6, 3), (1, 3)]),
    ({"post_nms_count": -1}, [(6, 4), (6, 12), (6, 3), (1, 3)]),
    ({"num_classes": None}, [(6, 4), (6, 12), (6, 3), (1, 3)]),
])
def test_what_the_text_forbids(change, shapes):
    attributes = {k: v for k, v in {**ATTRIBUTES, **change}.items() if v is not None}
    with pytest.raises(reference.SpecViolation):
        reference.output_shapes("openvino", OP, 6, shapes, attributes)
