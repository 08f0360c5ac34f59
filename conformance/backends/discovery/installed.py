"""The backends usable on this machine: every registered one, checked and constructed to see that its runtime is
there and loads (a third-party plugin in a worker process, so one that crashes or hangs in its constructor costs
its own line), and ``--backend`` selections (``all`` is every installed backend).

Our own backends are checked first with their class's ``check_installed`` (files only, nothing loaded): a partial
install (``op-conformance[onnxruntime]``) registers every built-in backend, and one whose runtime is absent is *not
installed*, with the reason — no column in ``all``, a usage error when named (``check``)."""

from __future__ import annotations

from dataclasses import dataclass

from conformance.backends.base import NotInstalled
from conformance.backends.registry import entry_points, is_ours


@dataclass(frozen=True)
class Available:
    name: str
    target: str  # "module:attr" of the entry point
    error: str = ""  # why it cannot be loaded (library not installed, ...); empty when installed
    #: True when ``error`` says the runtime is not installed (``NotInstalled``: its message, whole), False when
    #: something else failed (a constructor that raised or crashed)
    missing: bool = False
    #: selected by ``--backend=all`` (a column that only a user asks for by name says False: ``Backend.in_all``)
    in_all: bool = True


#: seconds a third-party plugin's constructor may take while ``available()`` probes it in a worker
PROBE_TIMEOUT = 60.0


def available() -> list[Available]:
    """Every registered backend, with the reason it is unusable when its runtime is missing.

    Third-party plugins are constructed in a worker process: one that segfaults or hangs in its constructor is
    listed with that error instead of taking ``conformance backends`` or ``--backend=all`` down.
    """
    from conformance.backends.names import MAX_LENGTH, problem

    found = []
    for name, ep in sorted(entry_points().items()):
        why = problem(name)  # a name past a file name's limit, or with '@': listed, never selected by `all`
        if why:
            shown = name if len(name) <= MAX_LENGTH else name[:MAX_LENGTH] + "..."
            found.append(Available(shown, ep.value, f"its entry point's name {why}"))
            continue
        try:
            in_all = True
            if is_ours(name):
                factory = ep.load()
                factory.check_installed()  # before constructing: a missing runtime is said as such
                factory()
                in_all = bool(getattr(factory, "in_all", True))
            else:
                _probe_isolated(name)
            found.append(Available(name, ep.value, in_all=in_all))
        except NotInstalled as exc:
            found.append(Available(name, ep.value, str(exc), missing=True))
        except Exception as exc:  # a vendor plugin may fail in any way: report it, never crash
            found.append(Available(name, ep.value, f"{type(exc).__name__}: {exc}"))
    return found


class CannotImport(LookupError):
    """A ``--backend`` spec whose module or class cannot be loaded (message: why, whole)."""


def check(spec: str, imports: bool = True) -> None:
    """Raise ``NotInstalled`` when ``spec`` (``NAME`` or ``NAME:ARG``) names one of our own backends whose runtime
    is absent, ``CannotImport`` when any other spec's code cannot be imported (``module:Class``,
    ``onnx-backend:MODULE``, another distribution's entry point; with ``imports``): that import runs in a fresh
    interpreter (``spec_check``), a third-party module is never imported, nor its class run, in this process."""
    name = spec.partition(":")[0]
    ep = entry_points().get(name)
    if ep is not None and is_ours(spec):
        ep.load().check_installed()
    elif imports and (ep is not None or ":" in spec):
        from conformance.backends.discovery.spec_check import import_problem

        problem = import_problem(spec, PROBE_TIMEOUT)
        if problem:
            raise CannotImport(problem)


def _probe_isolated(name: str) -> None:
    from conformance.backends.answers import BadAnswer
    from conformance.backends.isolation.isolated_backend import IsolatedBackend

    with IsolatedBackend(name, PROBE_TIMEOUT, start_timeout=PROBE_TIMEOUT) as backend:
        try:
            backend.version()  # starts the worker: constructs the backend there
        except BadAnswer:  # it starts: kept in `all`, where each of its records says what it answered
            pass


def installed_names() -> list[str]:
    """What ``all`` selects: the installed backends, but a column that is asked for by name only."""
    return [a.name for a in available() if not a.error and a.in_all]


def parse_selection(values: list[str]) -> list[str]:
    """``--backend`` values: repeatable, comma lists, ``all`` (every installed backend)."""
    names: list[str] = []
    for value in values:
        for part in (p.strip() for p in value.split(",")):
            if not part:
                continue
            expanded = installed_names() if part == "all" else [part]
            names.extend(n for n in expanded if n not in names)
    return names
