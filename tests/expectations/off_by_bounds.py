"""A fake backend whose first output element is off by a stated multiple of the op's own derived bound, and the one
case it runs: what the expectations tests widen, skip and condition (tests/expectations/)."""

from __future__ import annotations

import numpy as np

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.compare import outputs
from conformance.oracle import oracle_for
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

CASE = """op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: mixed_signs
    attributes: {kernel_shape: [3, 3], pads: [1, 1, 1, 1]}
    inputs: {x: {shape: [1, 2, 6, 6], dtype: float32, random: {seed: 11, low: -2, high: 2}}}
"""
NAME = "offby"
ITEM = f"ai.onnx/AveragePool-22/mixed_signs::{NAME}[float32]"


def instance():  # noqa: ANN201 - a CaseInstance
    (made,) = expand(load_text(CASE, "case.yaml").cases[0])
    return made


def bound_at_first(case) -> float:  # noqa: ANN001 - a CaseInstance
    """The op's own derived bound of the first output element (the backend's scale 1)."""
    oracle = oracle_for(case)
    (policy,) = outputs.policies(oracle.evidence(1), NAME)
    return float(policy.bound(oracle.outputs[0], oracle.magnitude()[0]).flat[0])


class OffBy(Backend):
    """The reference's output with element 0 moved by ``times`` its bound (3: fails the op's own bound, passes it
    widened 4x, fails it widened 2x)."""

    name = NAME

    def __init__(self, times: float = 3.0) -> None:
        self.times = times

    def version(self) -> str:
        return "1.0"

    def run(self, case, inputs):  # noqa: ANN001, ANN201 - the Backend API
        (y,) = reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs
        y = y.astype(np.float64)
        y.flat[0] += self.times * bound_at_first(case)
        return [y.astype(np.float32)]
