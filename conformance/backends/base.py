"""The backend protocol every runtime plugin implements (docs/backends.md).

A backend knows nothing of pytest: it receives a case instance and its input arrays and returns output arrays,
or raises. The harness turns what it raises into a result status:

- ``Unsupported`` (or ``NotImplementedError``): the runtime does not implement this op/version/dtype/layout;
  the result is ``unsupported`` with the backend's own reason.
- ``Crashed`` / ``TimedOut`` (raised by the process isolation wrapper): ``crash`` / ``timeout``.
- a *rejection*: ``Rejected``, or an exception of a type the backend lists in ``rejection_types`` (its runtime's
  own validation errors), unless it is one of ``NOT_REJECTIONS``: a pass for ``expect: error`` cases, ``error``
  otherwise.
- any other exception (a bug in the adapter, a library that did not load, no memory): ``error``, never a pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from conformance.model import CaseInstance


class Unsupported(Exception):
    """Raised by a backend for an op, version, dtype or layout it does not implement."""


class Rejected(Exception):
    """Raised by a backend when its runtime refuses the case through its normal error path (model, attribute or
    shape validation while building or running the model). Backends whose runtime has its own validation error
    types may list them in ``rejection_types`` instead of wrapping them."""


#: Never a rejection, whatever a backend declares: these come from the harness, the adapter or the process (a
#: missing attribute or method, a wrong call, a library that did not load, no memory, runaway recursion), not
#: from the runtime's validation of the case.
NOT_REJECTIONS: tuple[type[BaseException], ...] = (AttributeError, TypeError, NameError, ImportError, OSError,
                                                   MemoryError, RecursionError, AssertionError, SystemError)


def is_rejection(backend: object, exc: BaseException) -> bool:
    """Did ``backend``'s runtime reject the case (rather than fail in some other way)?"""
    if isinstance(exc, NOT_REJECTIONS):
        return False
    if isinstance(exc, Rejected):
        return True
    declared = optional(backend, "rejection_types")
    return isinstance(exc, tuple(declared)) if declared else False


class Crashed(Exception):
    """The backend's worker process died (signal or exit code in the message): status ``crash``."""


class TimedOut(Exception):
    """The backend did not answer within the per-case timeout: status ``timeout``."""


class NotInstalled(ImportError):
    """The backend's runtime is not installed here: its Python package or its shared library is absent (the message
    says which, and how to install it). ``conformance backends`` lists it as not installed, ``--backend=all`` leaves
    it out and naming it is a usage error. An ImportError: what a missing module raises anyway."""


class Unavailable(Exception):
    """The backend could not be constructed (its library is missing, its constructor raised): status ``error``
    for each of its items, never a pass."""


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


@dataclass
class Answer:
    """What ``Backend.run`` hands back: its outputs, and what the harness records beside them. A plugin may return
    the outputs alone (a list of arrays: ``Answer(outputs)``); the built-in backends return an ``Answer``.

    - ``lowering``: the cross-spec lowering the case ran through (lowering/), the record's ``lowered``; ""
      when it ran natively.
    - ``ir``: the model text the runtime was handed (openvino-ir's IR XML), for debugging; "" otherwise.
    - ``seconds``: the time spent inside the runtime, when the backend measures it (a batch's share); None: the
      harness times the call.

    A value, never state left on the backend: the same answer whether the backend ran in this process, in an
    isolation worker or in a batch (answers.answer checks every field at that one place)."""

    outputs: list[np.ndarray]
    lowering: str = ""
    ir: str = ""
    seconds: float | None = None


@runtime_checkable
class BackendProtocol(Protocol):
    """What the harness requires of a backend: ``name``, ``version()``, ``supports()`` and ``run()``.

    Everything else is optional and declared, with its default, on ``Backend``: ``tolerance_scale``,
    ``description``, ``isolate``, ``capabilities()`` and ``export()``. A plugin
    may implement only this protocol; the harness reads the optional members through ``optional()``, which falls
    back to ``Backend``'s defaults.
    """

    name: str

    def version(self) -> str: ...

    def supports(self, case: CaseInstance) -> Support: ...

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray] | Answer: ...


class Backend:
    """Convenience base class; vendors may subclass it or implement the protocol from scratch.

    Class attributes are the optional members' defaults: a subclass overrides what applies to it.
    """

    name: str = "unnamed"
    #: Multiplies the derived tolerance for every case on this backend (1.0 = the arithmetic bound).
    tolerance_scale: float = 1.0
    #: Short description shown by ``conformance backends``.
    description: str = ""
    #: True: the runtime can abort or hang the process (native code), so ``--isolation=auto`` runs the backend in
    #: a worker process (docs/isolation.md).
    isolate: bool = False
    #: Exception types the runtime raises when it refuses a model (its validation errors): raised by ``run()``,
    #: they count as a rejection, as ``Rejected`` does. Anything else is an ``error`` (docs/backends.md).
    rejection_types: tuple[type[BaseException], ...] = ()
    #: False for a backend whose kernels do not depend on the CPU's ISA (pure Python and NumPy): its records carry
    #: no ISA level, and expectations entries with an ``isa:`` condition never match them.
    isa_dependent: bool = True
    #: The environment variable that caps the runtime's kernel dispatch at an ISA level when set before the runtime
    #: loads, for a runtime where the cap was checked to behave as a real CPU of that level does (docs/isa.md):
    #: ``--isa`` runs such a backend once per level. None: no faithful cap, the machine's own level only.
    isa_cap_env: str | None = None
    #: Cases per batch for a backend with ``run_batch`` (measured per runtime: a merged model's cost need not grow
    #: linearly with its cases); None: the harness's default. ``--batch-size`` overrides it.
    batch_size: int | None = None
    #: Python modules the constructor imports (the runtime's package): a column's fork server imports them ahead,
    #: so a forked worker does not (docs/isolation.md). Nothing is constructed there; a module whose import leaves
    #: a thread running makes the server spawn workers instead.
    preload_modules: tuple[str, ...] = ()

    @classmethod
    def check_installed(cls) -> None:
        """Raise ``NotInstalled`` when the runtime is absent. Checked on the class, from files alone (a package's
        spec, a shared library's path): it imports and loads nothing, so the process that lists and selects
        backends never loads a runtime (one libdnnl.so.3 per process). Installed by default."""

    def isa_level(self) -> str:
        """The ISA level the runtime's kernels run at (conformance/machine.py LEVELS): the machine's own by default;
        a runtime that reports its effective level (oneDNN, under a cap too) overrides this."""
        from conformance.machine import native_level

        return native_level() if optional(self, "isa_dependent") else ""

    def version(self) -> str:
        return "unknown"

    #: whether ``--backend=all`` selects this built-in backend when it is installed (False: only when named)
    in_all: bool = True

    def precision(self) -> str:
        """The inference precision the runtime runs float models at where it chooses one (the record's
        ``precision``: OpenVINO's hint); "" where it computes in the model's own types."""
        return ""

    def supports(self, case: CaseInstance) -> Support:
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray] | Answer:
        """The case's outputs: a list of arrays, or an ``Answer`` carrying its lowering and IR text too."""
        raise NotImplementedError

    def capabilities(self) -> dict[str, list[str]]:
        """What the backend can run, for ``conformance backends`` (e.g. {"ai.onnx": ["AveragePool", "MaxPool"]})."""
        return {}

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        """Write what reproduces ``run(case, inputs)`` without the harness into ``folder``; used by ``conformance
        repro``.

        Writes the model files the runtime is given and a runner script ``run_<backend>.py`` defining
        ``run(inputs: list[np.ndarray]) -> list`` that uses only the runtime's own API and NumPy (an ImportError
        from it means the runtime is not installed; NotImplementedError that the runtime does not implement the
        case). Returns the ``model`` section of the reproduction's case.json: at least ``runner`` (the script's
        file name) and ``files`` (everything written). Raises ``Unsupported`` when the backend cannot export.
        """
        raise Unsupported(f"{self.name} cannot export a reproduction (it does not implement Backend.export)")


#: The members a backend may lack (``name`` too: a broken plugin still needs a label in crash records).
OPTIONAL = ("name", "precision", "tolerance_scale", "description", "isolate", "capabilities", "export",
            "rejection_types", "isa_dependent", "isa_cap_env", "isa_level", "batch_size", "preload_modules")


def optional(backend: object, member: str) -> Any:
    """``backend.member``, or ``Backend``'s default when a protocol-only plugin lacks it.

    Methods come back callable either way (``optional(b, "capabilities")()``): the default implementation is
    bound to the plugin. Only the members in ``OPTIONAL`` are read this way, so a typo fails loudly.
    """
    if member not in OPTIONAL:
        raise AttributeError(f"{member!r} is not an optional backend member (those are: {', '.join(OPTIONAL)})")
    try:
        return getattr(backend, member)
    except AttributeError:
        default = getattr(Backend, member)
        return default.__get__(backend) if callable(default) else default
