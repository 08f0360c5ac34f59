"""OpenVINO ExperimentalDetectronDetectionOutput-6 (reference/openvino_experimental_detectron_detection_output.py):
every element unspecified (no NMS IoU, clip bounds or order in the text); shapes and types judged, exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_experimental_detectron_detection_output as reference

ENTRY = OpEntry(schema=reference.SCHEMA, ir_layer="ExperimentalDetectronDetectionOutput", layout_inputs=(),
                coverage=lambda v: [dims.Dimension("class_agnostic_box_regression", ("false", "true"),
                                                   dims.attr("class_agnostic_box_regression", False, dims.boolean))],
                summary="class-wise decoding, clipping and suppression of detections (shapes and types only)")
