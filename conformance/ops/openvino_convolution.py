"""OpenVINO Convolution-1 (reference/openvino_convolution.py holds the semantics). Judged by the accumulation bound, (K
+ 2)·u·Σ|x·w| + 1 ulp, K C_IN times the most kernel taps of one window on the input (``window_elements``), Σ|x·w|
the op on |x| and |w| (the contract's default magnitude); integers exactly.
"""

from __future__ import annotations

from conformance.ops.openvino_convolutions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_convolution

ENTRY = OpEntry(schema=openvino_convolution.SCHEMA, error_models={"output": "accumulate"},
                ir_layer="Convolution", coverage=coverage(backprop=False), layout_inputs=(),
                summary="1-D, 2-D or 3-D cross-correlation of the data with the kernel")
