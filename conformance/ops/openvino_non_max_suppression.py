"""OpenVINO NonMaxSuppression-1/3/4/5/9 (reference/openvino_non_max_suppression.py holds the semantics): every
output judged jointly as one selection the text admits (conformance/ops/_suppression.py: ties of equal scores in
any admissible order, IoUs within rounding of the threshold either way, the text's readings; -1 padding)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops._suppression import Selection
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_non_max_suppression


def coverage(version: int) -> list[dims.Dimension]:
    found = [dims.Dimension("box_encoding", ("corner", "center"), dims.attr("box_encoding", "corner")),
             dims.Dimension("sort_result_descending", ("false", "true"),
                            dims.attr("sort_result_descending", True, dims.boolean))]
    if version >= 3:
        found.append(dims.Dimension("output_type", ("i32", "i64"), dims.attr("output_type", "i64")))
    return found


ENTRY = OpEntry(schema=openvino_non_max_suppression.SCHEMA,
                error_models={"selected_indices": Selection(), "selected_scores": Selection(),
                              "valid_outputs": Selection()},
                ir_layer="NonMaxSuppression", coverage=coverage, layout_inputs=(),
                summary="greedy non-maximum suppression per batch and class (Soft-NMS from -5), -1 padded")
