"""The backend protocol every runtime plugin implements (DESIGN.md, "Backend plugins").

A backend knows nothing of pytest: it receives a case instance and its input arrays and returns output arrays,
or raises. The harness turns what it raises into a result status:

- ``Unsupported`` (or ``NotImplementedError``): the runtime does not implement this op/version/dtype/layout;
  the result is ``unsupported`` with the backend's own reason.
- ``Crashed`` / ``TimedOut`` (raised by the process isolation wrapper): ``crash`` / ``timeout``.
- any other exception: the runtime rejected the case (a pass for ``expect: error`` cases, ``error`` otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from conformance.suite.model import CaseInstance


class Unsupported(Exception):
    """Raised by a backend for an op, version, dtype or layout it does not implement."""


class Crashed(Exception):
    """The backend's worker process died (signal or exit code in the message): status ``crash``."""


class TimedOut(Exception):
    """The backend did not answer within the per-case timeout: status ``timeout``."""


@dataclass(frozen=True)
class Support:
    """Answer of ``Backend.supports``: ``Support.yes()`` or ``Support.no("reason")``."""

    ok: bool
    reason: str = ""

    @classmethod
    def yes(cls) -> Support:
        return cls(True, "")

    @classmethod
    def no(cls, reason: str) -> Support:
        return cls(False, reason)

    def __bool__(self) -> bool:
        return self.ok


@runtime_checkable
class BackendProtocol(Protocol):
    name: str

    def version(self) -> str: ...

    def supports(self, case: CaseInstance) -> Support: ...

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]: ...


class Backend:
    """Convenience base class; vendors may subclass it or implement the protocol from scratch."""

    name: str = "unnamed"
    #: Multiplies the derived tolerance for every case on this backend (1.0 = the arithmetic bound).
    tolerance_scale: float = 1.0
    #: Short description shown by ``conformance backends``.
    description: str = ""

    def version(self) -> str:
        return "unknown"

    def supports(self, case: CaseInstance) -> Support:
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        raise NotImplementedError

    def capabilities(self) -> dict[str, list[str]]:
        """What the backend can run, for ``conformance backends`` (e.g. {"ai.onnx": ["AveragePool-7+"]})."""
        return {}
