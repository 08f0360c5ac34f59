"""OpenVINO ShuffleChannels (reference/openvino_shuffle_channels.py holds the semantics): data movement, exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_shuffle_channels

ENTRY = OpEntry(schema=openvino_shuffle_channels.SCHEMA, error_models={"output": "exact"}, ir_layer="ShuffleChannels",
                layout_inputs=(),
                summary="the channel axis seen as group x C/group, transposed")
