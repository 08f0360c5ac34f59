"""OpenVINO StridedSlice-1 (reference/openvino_strided_slice.py holds the semantics): NumPy's basic indexing spelled
as begin/end/stride and five masks, judged exactly."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_strided_slice

ENTRY = OpEntry(schema=openvino_strided_slice.SCHEMA, error_models={"output": "exact"}, ir_layer="StridedSlice",
                layout_inputs=(), summary="begin:end:stride with begin/end/new_axis/shrink_axis/ellipsis masks")
