"""OpenVINO PriorBoxClustered-1 (reference/openvino_prior_box_clustered.py holds the semantics). A coordinate is
``(center ± size/2) / image``: judged by the averaging bound with K = 4, (K + 2) = 6 roundings of its terms'
magnitude (|center| + size/2) / image (the centre's offset add and step or image/grid multiply, the half width
(exact), the subtraction) and roundings=1 (the division by the image's size); the variance row is a copy."""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_prior_box_clustered

ENTRY = OpEntry(schema=openvino_prior_box_clustered.SCHEMA, error_models={"output": Model("average", roundings=1)},
                ir_layer="PriorBoxClustered", layout_inputs=(),
                summary="one prior box per given width and height at every grid cell, normalised")
