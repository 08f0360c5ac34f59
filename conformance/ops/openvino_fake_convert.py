"""OpenVINO FakeConvert-13 (reference/openvino_fake_convert.py holds the semantics): data·scale − shift rounded to
f8e4m3 or f8e5m2 and mapped back; elements at an 8-bit rounding boundary or past its range unspecified, the rest
judged by 3 ULPs of T at (|q| + |shift|)/|scale| (the sum and the division after the conversion, a reciprocal)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_fake_convert


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("destination_type", ("f8e4m3", "f8e5m2"), dims.attr("destination_type", None))]


ENTRY = OpEntry(schema=openvino_fake_convert.SCHEMA, error_models={"output": Model("ulp", ulps=3)},
                ir_layer="FakeConvert", coverage=coverage, layout_inputs=(),
                summary="quantisation to an 8-bit float and back (scale, shift)")
