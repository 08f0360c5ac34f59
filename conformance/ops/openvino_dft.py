"""OpenVINO DFT (reference/openvino_dft.py holds the semantics): the discrete Fourier transform over axes. Judged by
the accumulation bound, K the real products one output component sums, at the transformed data's magnitudes (the
reference's ``magnitude``).
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_dft

ENTRY = OpEntry(schema=openvino_dft.SCHEMA, error_models={"output": "accumulate"}, ir_layer="DFT",
                layout_inputs=(), summary="the discrete Fourier transform over axes")
