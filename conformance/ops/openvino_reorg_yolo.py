"""OpenVINO ReorgYolo-1 (reference/openvino_reorg_yolo.py): the text defines the shapes only, every element is
unspecified; the output's shape and type are compared (exact)."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reorg_yolo

ENTRY = OpEntry(schema=openvino_reorg_yolo.SCHEMA, error_models={"output": "exact"}, ir_layer="ReorgYolo",
                layout_inputs=(), summary="channels from strided spatial blocks (shape only: no element order given)")
