"""Backends for the fuzzer's own tests: the reference itself (correct by definition) and one with a planted bug."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.model import CaseInstance


class ReferenceBackend(Backend):
    """The oracle wrapped as a backend: it must never diverge from itself (and rejects what it rejects)."""

    name = "reference-as-backend"
    #: the reference's refusal is this backend's runtime rejection (docs/backends.md, "Rejections")
    rejection_types = (reference.SpecViolation,)

    def version(self) -> str:
        return "test"

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        return reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs


class PlantedBugBackend(ReferenceBackend):
    """AveragePool with a wrong divisor only when ceil_mode and explicit pads combine: it then counts the padding
    (as if count_include_pad=1), the kind of bug a fuzzer has to find by combining attributes."""

    name = "planted-bug"

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        attrs = dict(case.attributes)
        if attrs.get("ceil_mode") == 1 and any(attrs.get("pads", [])):
            attrs["count_include_pad"] = 1
        return reference.evaluate(case.domain, case.op, case.version, inputs, attrs).outputs


@pytest.fixture
def reference_backend() -> ReferenceBackend:
    return ReferenceBackend()


@pytest.fixture
def planted_backend() -> PlantedBugBackend:
    return PlantedBugBackend()
