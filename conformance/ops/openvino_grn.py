"""OpenVINO GRN-1 (reference/openvino_grn.py holds the semantics): x / sqrt(sum over the channels of x² + bias).
Every term is >= 0: the accumulation bound at |y|, K the channel count, then the sqrt and the division: 2
roundings (as NormalizeL2).
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_grn

ENTRY = OpEntry(schema=openvino_grn.SCHEMA, error_models={"y": Model("accumulate", roundings=2)}, ir_layer="GRN",
                layout_inputs=(), summary="x / sqrt(sum over channels of x² + bias)")
