"""OpenVINO RDFT (reference/openvino_rdft.py holds the semantics): the discrete Fourier transform of a real signal,
half spectrum. Judged by the accumulation bound, K the real products one output component sums, at the transformed
data's magnitudes (the reference's ``magnitude``).
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_rdft

ENTRY = OpEntry(schema=openvino_rdft.SCHEMA, error_models={"output": "accumulate"}, ir_layer="RDFT",
                layout_inputs=(), summary="the discrete Fourier transform of a real signal, half spectrum")
