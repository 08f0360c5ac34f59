"""OpenVINO CumSum-3 (reference/openvino_cumsum.py holds the semantics): running sums along an axis, judged by the
accumulation bound with K the axis length (integers exactly)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_cumsum


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("exclusive", ("false", "true"), dims.attr("exclusive", False, dims.boolean)),
            dims.Dimension("reverse", ("false", "true"), dims.attr("reverse", False, dims.boolean))]


ENTRY = OpEntry(schema=openvino_cumsum.SCHEMA, error_models={"output": "accumulate"}, ir_layer="CumSum",
                coverage=coverage, layout_inputs=(), summary="inclusive/exclusive running sums, forward or reversed")
