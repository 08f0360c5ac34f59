"""OpenVINO STFT (reference/openvino_stft.py holds the semantics): windowed frames' real DFTs. Judged by the
accumulation bound, K the frame size, at each frame's sum of |x * w|.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_stft

ENTRY = OpEntry(schema=openvino_stft.SCHEMA, error_models={"output": "accumulate"}, ir_layer="STFT",
                layout_inputs=(), summary="the short-time Fourier transform of a real signal")
