"""OpenVINO BinaryConvolution-1 (reference/openvino_binary_convolution.py): 2·popcount(XNOR) - B, integral
arithmetic whose values (|y| <= C_IN·KY·KX) every numeric type holds exactly in the cases: judged exactly."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_binary_convolution

ENTRY = OpEntry(schema=openvino_binary_convolution.SCHEMA, error_models={"output": "exact"},
                ir_layer="BinaryConvolution", layout_inputs=(),
                summary="xnor-popcount convolution of 0/1 data with a u1 kernel")
