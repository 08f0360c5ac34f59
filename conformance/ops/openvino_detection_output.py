"""OpenVINO DetectionOutput-1 and DetectionOutput-8 (reference/openvino_detection_output.py): the texts cite SSD
without a formula, so every element is unspecified; the output's shape and type are compared (exact)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_detection_output

ENTRY = OpEntry(schema=openvino_detection_output.SCHEMA, error_models={"output": "exact"},
                ir_layer="DetectionOutput", layout_inputs=(),
                summary="SSD detections as 7-tuples (shape only: the texts give no formula)")
