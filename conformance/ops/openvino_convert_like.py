"""OpenVINO ConvertLike (reference/openvino_convert_like.py holds the semantics): data in like's element type.
Judged exact, as Convert.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_convert_like

ENTRY = OpEntry(schema=openvino_convert_like.SCHEMA, error_models={"y": "exact"}, ir_layer="ConvertLike",
                layout_inputs=(), summary="data converted to like's element type, element-wise")
