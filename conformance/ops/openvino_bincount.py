"""OpenVINO Bincount-17 (reference/openvino_bincount.py holds the semantics): a histogram of non-negative integers,
counts exact, weighted sums judged by the accumulation bound with K the largest bin (integer weights exactly)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bincount


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("weights", ("absent", "given"), lambda i: "given" if len(i.inputs) > 1 else "absent")]


ENTRY = OpEntry(schema=openvino_bincount.SCHEMA, error_models={"output": "accumulate"}, ir_layer="Bincount",
                coverage=coverage, layout_inputs=(), summary="a histogram of non-negative integers, weighted or not")
