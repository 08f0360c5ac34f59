"""OpenVINO IDFT (reference/openvino_idft.py holds the semantics): the inverse discrete Fourier transform over axes.
Judged by the accumulation bound, K the real products one output component sums, at the transformed data's
magnitudes (the reference's ``magnitude``), one rounding more for the 1 / prod(S) scaling.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_idft

ENTRY = OpEntry(schema=openvino_idft.SCHEMA, error_models={"output": Model("accumulate", roundings=1)}, ir_layer="IDFT",
                layout_inputs=(), summary="the inverse discrete Fourier transform over axes")
