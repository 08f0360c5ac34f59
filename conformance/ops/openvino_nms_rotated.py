"""OpenVINO NMSRotated-13 (reference/openvino_nms_rotated.py holds the semantics): NonMaxSuppression-5's outputs with
rotated IoUs, judged jointly as one admissible selection (conformance/ops/_suppression.py)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops._suppression import Selection
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_nms_rotated


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("clockwise", ("false", "true"), dims.attr("clockwise", True, dims.boolean)),
            dims.Dimension("sort_result_descending", ("false", "true"),
                           dims.attr("sort_result_descending", True, dims.boolean)),
            dims.Dimension("output_type", ("i32", "i64"), dims.attr("output_type", "i64"))]


ENTRY = OpEntry(schema=openvino_nms_rotated.SCHEMA,
                error_models={"selected_indices": Selection(), "selected_scores": Selection(),
                              "valid_outputs": Selection()},
                ir_layer="NMSRotated", coverage=coverage, layout_inputs=(),
                summary="greedy NMS of rotated boxes per batch and class, -1 padded")
