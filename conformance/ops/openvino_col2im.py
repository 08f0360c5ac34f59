"""OpenVINO Col2Im-14/15 (reference/openvino_col2im.py holds the semantics): sliding blocks summed back into an
image, judged by the accumulation bound with K the most taps one output element receives (integers exactly)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_col2im

ENTRY = OpEntry(schema=openvino_col2im.SCHEMA, error_models={"output": "accumulate"}, ir_layer="Col2Im",
                layout_inputs=(), summary="sliding blocks summed back into an image (the inverse of patch extraction)")
