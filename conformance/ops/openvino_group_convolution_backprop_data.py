"""OpenVINO GroupConvolutionBackpropData-1 (reference/openvino_group_convolution_backprop_data.py holds the semantics).
Judged by the accumulation bound, (K + 2)·u·Σ|x·w| + 1 ulp, K the most (input element, tap) pairs one output element
sums times C_IN (``window_elements``), Σ|x·w| the op on |x| and |w| (the contract's default magnitude); integers
exactly.
"""

from __future__ import annotations

from conformance.ops.openvino_convolutions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_group_convolution_backprop_data

ENTRY = OpEntry(schema=openvino_group_convolution_backprop_data.SCHEMA, error_models={"output": "accumulate"},
                ir_layer="GroupConvolutionBackpropData", coverage=coverage(backprop=True), layout_inputs=(),
                summary="grouped transposed convolution")
