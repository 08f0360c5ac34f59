"""OpenVINO ReduceLogicalOr (reference/openvino_reduce_logical_or.py holds the semantics). Boolean: exact.
"""

from __future__ import annotations

from conformance.ops.openvino_reductions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reduce_logical_or

ENTRY = OpEntry(schema=openvino_reduce_logical_or.SCHEMA, error_models={"output": "exact"},
                ir_layer="ReduceLogicalOr",
                coverage=coverage, layout_inputs=(), summary="logical or along axes")
