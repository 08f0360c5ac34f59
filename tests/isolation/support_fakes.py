"""A backend whose supports() counts how often its worker was asked (supports_ahead's tests)."""

from __future__ import annotations

import os

from isolation_fakes import CorrectBackend

from conformance.backends.base import Support


class CountingSupportBackend(CorrectBackend):
    """supports() says in its reason how many times this worker was asked; a case id holding ``no`` is refused,
    ``raise`` raises and ``abort`` takes the worker down."""

    name = "fake-counting-support"

    def __init__(self) -> None:
        self.asked = 0

    def supports(self, case):
        self.asked += 1
        if "abort" in case.id:
            os.abort()
        if "raise" in case.id:
            raise RuntimeError(f"supports failed on {case.id}")
        return Support("no" not in case.id.split("/")[-1], f"asked {self.asked} in {os.getpid()}")
