"""OpenVINO AvgPool-14/16 on integer types: an output is right where it is floor or ceil of the exact mean (the
text states no rounding), exactly, 64-bit values included; floating-point outputs keep the averaging bound."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.backends.base import Backend
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

CASE = """op: AvgPool
domain: openvino
versions: [14, 16]
cases:
  - id: mean
    dtypes: [{dtype}]
    attributes: {{kernel: [2], strides: [1], pads_begin: [0], pads_end: [1], exclude-pad: false}}
    inputs: {{data: {{shape: [1, 1, 4], data: {data}}}}}
"""


class Shifted(Backend):
    """Returns ``values`` as the output, whatever the input."""

    name = "shifted"

    def __init__(self, values):
        self.values = values

    def run(self, case, inputs):
        return [np.array(self.values, dtype=inputs[0].dtype).reshape(1, 1, -1)]


def judged(dtype: str, data: list, output: list) -> str:
    (instance, *_) = expand(load_text(CASE.format(dtype=dtype, data=data), "case.yaml").cases[0])
    record = run_backend(instance, Shifted(output))
    return record.status


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "uint64"])
def test_floor_and_ceil_of_the_exact_mean_pass_and_nothing_else(dtype):
    # windows (1,2) (2,4) (4,7) (7,pad): means 1.5, 3, 5.5, 3.5 (padding counted)
    data = [1, 2, 4, 7]
    assert judged(dtype, data, [1, 3, 5, 3]) == "pass"  # floor everywhere
    assert judged(dtype, data, [2, 3, 6, 4]) == "pass"  # ceil everywhere
    assert judged(dtype, data, [2, 4, 6, 4]) == "fail"  # an integer mean (3) has one admissible answer
    assert judged(dtype, data, [0, 3, 5, 3]) == "fail"  # one below floor


def test_64_bit_means_are_exact():
    big = 2**64 - 1  # (2^64-1 + 2^64-2)/2 = 2^64 - 1.5: floor 2^64-2, ceil 2^64-1; float64 would say 2^64
    data = [big, big - 1, 0, 0]
    half = (big + big - 1) // 2
    assert judged("uint64", data, [half, (big - 1) // 2, 0, 0]) == "pass"
    assert judged("uint64", data, [half + 1, (big - 1) // 2, 0, 0]) == "pass"
    assert judged("uint64", data, [half - 1, (big - 1) // 2, 0, 0]) == "fail"
    assert judged("uint64", data, [half, (big - 1) // 2 + 1, 0, 0]) == "fail"  # (2^64-2)/2 is an integer


def test_floating_point_outputs_keep_the_averaging_bound():
    assert judged("float32", [1, 2, 4, 7], [1.5, 3, 5.5, 3.5]) == "pass"
    assert judged("float32", [1, 2, 4, 7], [1, 3, 5, 3]) == "fail"
