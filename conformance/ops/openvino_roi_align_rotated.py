"""OpenVINO ROIAlignRotated-14 and -15 (reference/openvino_roi_align_rotated.py holds the semantics and its two
readings of the turn). Judged as ROIAlign's average: the averaging bound with K = 7 per bilinear sample and
roundings=1 (the division by the sample count), the magnitude carrying the S samples and each sample's coordinate
error (32·u·L·max|tap|, L including the box's reach from its centre: the rotation's products and sums)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_roi_align_rotated

ENTRY = OpEntry(schema=openvino_roi_align_rotated.SCHEMA, error_models={"output": Model("average", roundings=1)},
                ir_layer="ROIAlignRotated", layout_inputs=(),
                coverage=lambda v: [dims.Dimension("clockwise_mode", ("false", "true"),
                                                   dims.attr("clockwise_mode", False, dims.boolean))],
                summary="bilinear samples of each rotated box's bins, averaged")
