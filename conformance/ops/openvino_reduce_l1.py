"""OpenVINO ReduceL1 (reference/openvino_reduce_l1.py holds the semantics). Judged by the accumulation bound, (K +
2)·u·Σ|x| + 1 ulp (every term |x| >= 0: Σ|x| is |y|), K the number of reduced elements; integers exactly.
"""

from __future__ import annotations

from conformance.ops.openvino_reductions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reduce_l1

ENTRY = OpEntry(schema=openvino_reduce_l1.SCHEMA, error_models={"output": "accumulate"}, ir_layer="ReduceL1",
                coverage=coverage, layout_inputs=(), summary="sum of |x| along axes")
