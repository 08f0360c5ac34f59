"""OpenVINO ReduceMax (reference/openvino_reduce_max.py holds the semantics). A selection: exact (NaN matches NaN, -0
equals +0); a set holding NaN and an empty set unspecified.
"""

from __future__ import annotations

from conformance.ops.openvino_reductions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reduce_max

ENTRY = OpEntry(schema=openvino_reduce_max.SCHEMA, error_models={"output": "exact"}, ir_layer="ReduceMax",
                coverage=coverage, layout_inputs=(), summary="maximum along axes")
