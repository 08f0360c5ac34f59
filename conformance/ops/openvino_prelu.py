"""OpenVINO PReLU (reference/openvino_prelu.py holds the semantics): x, or slope * x for x < 0, the slope per channel
or broadcast. Judged exact: one correctly rounded product. Written in IR as OpenVINO's type name "PRelu".
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_prelu

ENTRY = OpEntry(schema=openvino_prelu.SCHEMA, error_models={"y": "exact"}, ir_layer="PRelu", layout_inputs=(),
                summary="x, or slope * x for x < 0 (slope per channel or broadcast)")
