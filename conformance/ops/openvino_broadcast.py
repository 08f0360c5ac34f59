"""OpenVINO Broadcast (reference/openvino_broadcast.py holds the semantics): data movement, judged exact."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_broadcast


def coverage(version: int) -> list[dims.Dimension]:
    values = ("numpy", "explicit") + (("bidirectional",) if version >= 3 else ())
    return [dims.Dimension("mode", values, dims.attr("mode", "numpy"))]


ENTRY = OpEntry(schema=openvino_broadcast.SCHEMA, error_models={"output": "exact"}, ir_layer="Broadcast",
                coverage=coverage, layout_inputs=(),
                summary="data replicated to target_shape (numpy, explicit, bidirectional)")
