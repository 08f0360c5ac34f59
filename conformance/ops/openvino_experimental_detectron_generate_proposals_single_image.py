"""OpenVINO ExperimentalDetectronGenerateProposalsSingleImage-6 (its reference module): the text gives no formula
for a proposal, so only shapes, types and the zero fill of an empty selection are compared (exact)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_experimental_detectron_generate_proposals_single_image as reference

ENTRY = OpEntry(schema=reference.SCHEMA, error_models={"output_rois": "exact", "output_scores": "exact"},
                ir_layer="ExperimentalDetectronGenerateProposalsSingleImage", layout_inputs=(),
                summary="proposals of one image from anchors and deltas (shapes and the zero fill only)")
