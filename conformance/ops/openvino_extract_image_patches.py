"""OpenVINO ExtractImagePatches (reference/openvino_extract_image_patches.py holds the semantics): image patches
flattened into the channel axis. Data movement: exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_extract_image_patches

ENTRY = OpEntry(schema=openvino_extract_image_patches.SCHEMA, error_models={"output": "exact"},
                ir_layer="ExtractImagePatches", layout_inputs=(),
                summary="image patches flattened into the channel axis")
