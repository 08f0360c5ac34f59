"""OpenVINO ReduceSum (reference/openvino_reduce_sum.py holds the semantics). Judged by the accumulation bound, (K +
2)·u·Σ|x| + 1 ulp, K the number of reduced elements (``window_elements``: the product of the reduced extents), Σ|x|
the op on |x|; integers exactly.
"""

from __future__ import annotations

from conformance.ops.openvino_reductions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reduce_sum

ENTRY = OpEntry(schema=openvino_reduce_sum.SCHEMA, error_models={"output": "accumulate"}, ir_layer="ReduceSum",
                coverage=coverage, layout_inputs=(), summary="sum along axes")
