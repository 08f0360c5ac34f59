"""Find backends: the ``conformance.backends`` entry-point group (built-ins are registered the same way a
vendor's plugin is) and ``onnx-backend:MODULE`` for any module implementing ``onnx.backend.base.Backend``."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import metadata

from conformance.backends.base import Backend

GROUP = "conformance.backends"


@dataclass(frozen=True)
class Available:
    name: str
    target: str  # "module:attr" of the entry point
    error: str = ""  # why it cannot be loaded (library not installed, ...); empty when installed


class BackendNotFound(LookupError):
    pass


def entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=GROUP)}


@functools.cache
def _our_distributions() -> frozenset[str]:
    """The distribution(s) installing this package (its name is not hard-coded: a rename must not make our own
    backends 'third-party')."""
    return frozenset(metadata.packages_distributions().get("conformance", ()))


def is_ours(spec: str) -> bool:
    """A backend this package ships (an entry point of our own distribution); every other spec — another
    distribution's entry point, ``onnx-backend:MODULE``, ``module:Class`` — is code we have not vetted."""
    ep = entry_points().get(spec.partition(":")[0])
    if ep is None or not ep.value.startswith("conformance."):
        return False
    dist = getattr(ep, "dist", None)
    return dist is None or dist.name in _our_distributions() or not _our_distributions()


#: seconds a third-party plugin's constructor may take while ``available()`` probes it in a worker
PROBE_TIMEOUT = 60.0


def available() -> list[Available]:
    """Every registered backend, with the reason it is unusable when its runtime is missing.

    Third-party plugins are constructed in a worker process: one that segfaults or hangs in its constructor is
    listed with that error instead of taking ``conformance backends`` or ``--backend=all`` down.
    """
    found = []
    for name, ep in sorted(entry_points().items()):
        try:
            if is_ours(name):
                ep.load()()
            else:
                _probe_isolated(name)
            found.append(Available(name, ep.value))
        except Exception as exc:  # a vendor plugin may fail in any way: report it, never crash
            found.append(Available(name, ep.value, f"{type(exc).__name__}: {exc}"))
    return found


def _probe_isolated(name: str) -> None:
    from conformance.backends.answers import BadAnswer
    from conformance.backends.isolation import IsolatedBackend

    with IsolatedBackend(name, PROBE_TIMEOUT, start_timeout=PROBE_TIMEOUT) as backend:
        try:
            backend.version()  # starts the worker: constructs the backend there
        except BadAnswer:  # it starts: kept in `all`, where each of its records says what it answered
            pass


def installed_names() -> list[str]:
    return [a.name for a in available() if not a.error]


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


def create(spec: str) -> Backend:
    """``NAME`` or ``NAME:ARG`` (e.g. ``onnxruntime:CUDAExecutionProvider``, ``onnx-backend:my_module``)."""
    name, _, arg = spec.partition(":")
    if name == "onnx-backend":
        from conformance.backends.onnx_backend_adapter import OnnxBackendAdapter

        return OnnxBackendAdapter(arg)
    eps = entry_points()
    if name not in eps:
        known = ", ".join(sorted(eps)) or "none"
        raise BackendNotFound(f"no backend named {name!r} (installed entry points: {known})")
    factory = eps[name].load()
    return factory(arg) if arg else factory()
