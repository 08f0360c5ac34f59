"""OpenVINO GatherTree (reference/openvino_gather_tree.py holds the semantics): beam search token ids reordered by
their parents. Data movement: exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_gather_tree

ENTRY = OpEntry(schema=openvino_gather_tree.SCHEMA, error_models={"final_ids": "exact"},
                ir_layer="GatherTree", layout_inputs=(),
                summary="beam search token ids reordered by their parents")
