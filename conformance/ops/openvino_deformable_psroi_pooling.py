"""OpenVINO DeformablePSROIPooling-1 (reference/openvino_deformable_psroi_pooling.py holds the semantics, MXNet's
formulas the page claims compatibility with). Judged as ROIAlign's average: the averaging bound with K = 7 per
bilinear sample and roundings=1 (the division by the sample count), the magnitude carrying the samples' sum and
each sample's coordinate error (32·u·L·max|tap|); bins with a sample within rounding of a skip bound unspecified.
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_deformable_psroi_pooling


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("offsets", ("absent", "given"), lambda i: "given" if len(i.inputs) > 2 else "absent")]


ENTRY = OpEntry(schema=openvino_deformable_psroi_pooling.SCHEMA, error_models={"output": Model("average", roundings=1)},
                ir_layer="DeformablePSROIPooling", coverage=coverage, layout_inputs=(),
                summary="position-sensitive bins of each box, their bilinear samples averaged, moved by offsets")
