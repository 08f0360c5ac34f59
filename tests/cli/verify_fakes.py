"""A fake backend whose answer depends on what ran before it in its process: the kind of runtime state
``conformance verify`` exists to find. Imported by workers through ``verify_fakes:StatefulBackend``."""

from __future__ import annotations

import os

import numpy as np

import conformance_reference as reference
from conformance.backends.base import Backend


class StatefulBackend(Backend):
    """Right for the first case its process runs; every later one comes back off by one (a stale kernel)."""

    name = "fake-stateful"
    isolate = True

    def __init__(self) -> None:
        self.ran = 0

    def version(self) -> str:
        return f"1.0 pid {os.getpid()}"

    def run(self, case, inputs: list[np.ndarray]) -> list[np.ndarray]:
        outputs = list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)
        self.ran += 1
        return outputs if self.ran == 1 else [o + 1 for o in outputs]
