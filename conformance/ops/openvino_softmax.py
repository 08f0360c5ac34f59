"""OpenVINO SoftMax-1 and -8 (reference/openvino_softmax.py holds the semantics). Judged by the accumulation bound
at |y| (every term e^t >= 0), K the axis length (ONNX Softmax's family), and 6 roundings more for exp's 3 ULPs.
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_softmax


def coverage(version: int) -> list[dims.Dimension]:
    values = ("0", "1", "last") + (("negative",) if version >= 8 else ())

    def axis(instance) -> str:
        value, rank = int(instance.attributes.get("axis", 1)), len(instance.input_shapes[0])
        return "negative" if value < 0 else "last" if value == rank - 1 and value > 1 else str(value)
    return [dims.Dimension("axis", values, axis)]


ENTRY = OpEntry(schema=openvino_softmax.SCHEMA, error_models={"y": Model("accumulate", roundings=6)},
                ir_layer="SoftMax", coverage=coverage, summary="e^x over its sum along axis")
