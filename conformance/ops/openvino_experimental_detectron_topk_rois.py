"""OpenVINO ExperimentalDetectronTopKROIs-6 (reference/openvino_experimental_detectron_topk_rois.py): the ROIs of
highest probability, exact, equal probabilities in any order (conformance/ops/_topk_rois.py)."""

from __future__ import annotations

from conformance.ops._topk_rois import TiedRois
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_experimental_detectron_topk_rois as reference

ENTRY = OpEntry(schema=reference.SCHEMA, error_models={"output_rois": TiedRois()},
                ir_layer="ExperimentalDetectronTopKROIs", layout_inputs=(),
                summary="the max_rois ROIs of highest probability, descending")
