"""OpenVINO RMS-14 and -15 (reference/openvino_rms.py holds the semantics): x / sqrt(mean of x² over axes + epsilon),
times an optional scale. Every term is >= 0: the accumulation bound at |y|, K the reduced extent, then + epsilon,
sqrt, division and scale: 3 roundings. No builder: neither version is in an opset the Python API or the IR reader
knows (both columns answer unsupported).
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_rms

ENTRY = OpEntry(schema=openvino_rms.SCHEMA, error_models={"y": Model("accumulate", roundings=3)}, ir_layer="RMS",
                layout_inputs=(), summary="x / sqrt(mean of x² over axes + epsilon), times scale")
