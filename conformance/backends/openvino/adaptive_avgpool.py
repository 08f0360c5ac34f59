"""The OpenVINO AdaptiveAvgPool-8 builder: output_size (int32/int64) becomes a Constant, so the data input is
the model's only Parameter and the spatial output extent is fixed when OpenVINO infers shapes."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.base import Unsupported
from conformance.backends.openvino.opset import INDEX_TYPES, OpsetBuilder
from conformance.model import CaseInstance


def output_size_input(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The adaptive pools' second input (spatial output size), kept in its own integer dtype."""
    if len(inputs) != 2:
        raise ValueError(f"{case.op}-{case.version} takes two inputs (data, output_size), got {len(inputs)}")
    size = np.asarray(inputs[1])
    if size.dtype.name not in INDEX_TYPES:
        raise Unsupported(f"output_size of dtype {size.dtype} (the spec allows int32 and int64 only)")
    return [size]


def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    if case.attributes:  # the op has no attributes; only the IR path can carry unknown ones
        raise Unsupported(f"the opset API has no AdaptiveAvgPool-8 attribute(s) {sorted(case.attributes)}")
    return opset.adaptive_avg_pool(inputs[0], inputs[1])


BUILDER = OpsetBuilder(opsets={8: "openvino.opset8"}, build=build, constants=output_size_input)
