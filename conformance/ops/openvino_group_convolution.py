"""OpenVINO GroupConvolution-1 (reference/openvino_group_convolution.py holds the semantics). Judged by the
accumulation bound, (K + 2)·u·Σ|x·w| + 1 ulp, K C_IN times the most kernel taps of one window on the input
(``window_elements``), Σ|x·w| the op on |x| and |w| (the contract's default magnitude); integers exactly.
"""

from __future__ import annotations

from conformance.ops.openvino_convolutions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_group_convolution

ENTRY = OpEntry(schema=openvino_group_convolution.SCHEMA, error_models={"output": "accumulate"},
                ir_layer="GroupConvolution", coverage=coverage(backprop=False), layout_inputs=(),
                summary="convolution of each group of channels with its own kernel")
