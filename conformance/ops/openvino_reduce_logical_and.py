"""OpenVINO ReduceLogicalAnd (reference/openvino_reduce_logical_and.py holds the semantics). Boolean: exact.
"""

from __future__ import annotations

from conformance.ops.openvino_reductions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reduce_logical_and

ENTRY = OpEntry(schema=openvino_reduce_logical_and.SCHEMA, error_models={"output": "exact"},
                ir_layer="ReduceLogicalAnd",
                coverage=coverage, layout_inputs=(), summary="logical and along axes")
