"""OpenVINO MatrixNonMaxSuppression-8 (reference/openvino_matrix_non_max_suppression.py holds the semantics): every
output judged jointly as one admissible selection, decayed scores within their slack
(conformance/ops/_multiclass.py)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops._multiclass import Selection
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_matrix_non_max_suppression as reference


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("sort_result", ("class", "score", "none"), dims.attr("sort_result", "none")),
            dims.Dimension("decay_function", ("gaussian", "linear"), dims.attr("decay_function", "linear")),
            dims.Dimension("sort_result_across_batch", ("false", "true"),
                           dims.attr("sort_result_across_batch", False, dims.boolean)),
            dims.Dimension("output_type", ("i32", "i64"), dims.attr("output_type", "i64")),
            dims.Dimension("normalized", ("false", "true"), dims.attr("normalized", True, dims.boolean))]


ENTRY = OpEntry(schema=reference.SCHEMA,
                error_models={"selected_outputs": Selection(), "selected_indices": Selection(),
                              "selected_num": Selection()},
                ir_layer="MatrixNonMaxSuppression", coverage=coverage, layout_inputs=(),
                summary="Matrix NMS: scores decayed by the IoU matrix, post_threshold, nms_top_k/keep_top_k")
