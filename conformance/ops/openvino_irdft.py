"""OpenVINO IRDFT (reference/openvino_irdft.py holds the semantics): the inverse transform of a half spectrum to a real
signal. Judged by the accumulation bound, K the real products one output component sums, at the transformed data's
magnitudes (the reference's ``magnitude``), one rounding more for the 1 / prod(S) scaling.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_irdft

ENTRY = OpEntry(schema=openvino_irdft.SCHEMA, error_models={"output": Model("accumulate", roundings=1)},
                ir_layer="IRDFT", layout_inputs=(), summary="the inverse transform of a half spectrum to a real signal")
