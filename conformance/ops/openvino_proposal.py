"""OpenVINO Proposal-1 and Proposal-4 (reference/openvino_proposal.py): the texts give no formula for any value, so
every element is unspecified; the outputs' shapes and types are compared (exact)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_proposal

ENTRY = OpEntry(schema=openvino_proposal.SCHEMA, error_models={"proposals": "exact", "probabilities": "exact"},
                ir_layer="Proposal", layout_inputs=(),
                summary="region proposals from anchors and deltas (shape only: the texts give no formula)")
