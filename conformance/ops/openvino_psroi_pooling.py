"""OpenVINO PSROIPooling-1 (reference/openvino_psroi_pooling.py holds the semantics and its readings). ``average``
is a mean of the K pixels of a bin: the averaging bound (K + 2)·u·mean|x| + 1 ulp, K from the boxes' values and so
carried by the reference's ``magnitude`` (window_elements is 1); ``bilinear`` has no formula in its text: every
element unspecified, the output's shape and type checked."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_psroi_pooling

ENTRY = OpEntry(schema=openvino_psroi_pooling.SCHEMA, error_models={"output": "average"}, ir_layer="PSROIPooling",
                coverage=lambda v: [dims.Dimension("mode", openvino_psroi_pooling.MODES, dims.attr("mode", "average"))],
                layout_inputs=(), summary="position-sensitive average of each bin of each box")
