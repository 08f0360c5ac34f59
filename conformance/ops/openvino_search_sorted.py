"""OpenVINO SearchSorted (reference/openvino_search_sorted.py holds the semantics): insertion indices in a sorted
innermost axis. Indices: exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_search_sorted

ENTRY = OpEntry(schema=openvino_search_sorted.SCHEMA, error_models={"output": "exact"}, ir_layer="SearchSorted",
                layout_inputs=(),
                summary="insertion indices in a sorted innermost axis")
