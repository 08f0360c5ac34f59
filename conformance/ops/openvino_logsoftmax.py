"""OpenVINO LogSoftmax-5 (reference/openvino_logsoftmax.py holds the semantics). Judged by the accumulation bound,
K the axis length, at |t| + 1 + |ln(sum e^t)| (the reference's magnitude: the subtraction's and the logarithm's
scales), 6 roundings more for the logarithm's 3 ULPs.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_logsoftmax

ENTRY = OpEntry(schema=openvino_logsoftmax.SCHEMA, error_models={"y": Model("accumulate", roundings=6)},
                ir_layer="LogSoftmax", summary="x - max - ln(sum e^(x - max)) along axis")
