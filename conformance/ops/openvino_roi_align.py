"""OpenVINO ROIAlign-3 and ROIAlign-9 (reference/openvino_roi_align.py holds the semantics). Judged by the averaging
bound, (K + 2)·u·magnitude + 1 ulp with K = 7 (one bilinear sample: four products of a two-rounding weight, three
additions) and roundings=1 (avg's division by the sample count). The magnitude carries the rest (the reference's
``magnitude``): the sum of the S samples ((S + 2)·Σw|x| averaged) and each sample's coordinate error, 32·u·L·max|tap|
(a few roundings of values up to the map's extent L per axis, times Σ|∂w| = 2 per axis); max mode the largest of
its samples' bounds.
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_roi_align


def coverage(version: int) -> list[dims.Dimension]:
    found = [dims.Dimension("mode", openvino_roi_align.MODES, dims.attr("mode", None)),
             dims.Dimension("sampling_ratio", ("0", "positive"),
                            lambda i: None if "sampling_ratio" not in i.attributes
                            else "0" if int(i.attributes["sampling_ratio"]) == 0 else "positive")]
    if version >= 9:
        found.append(dims.Dimension("aligned_mode", openvino_roi_align.ALIGNED_MODES,
                                    dims.attr("aligned_mode", "asymmetric")))
    return found


ENTRY = OpEntry(schema=openvino_roi_align.SCHEMA, error_models={"output": Model("average", roundings=1)},
                ir_layer="ROIAlign", coverage=coverage, layout_inputs=(),
                summary="bilinear samples of each box's bins, averaged or maximised")
