"""Find backends: the ``conformance.backends`` entry-point group (built-ins are registered the same way a
vendor's plugin is) and ``onnx-backend:MODULE`` for any module implementing ``onnx.backend.base.Backend``.
Which of them are usable here (probing third-party ones in a worker) is discovery/installed.py's job."""

from __future__ import annotations

import functools
from importlib import metadata
from typing import Any

from conformance.backends.base import Backend

GROUP = "conformance.backends"


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


def declared(spec: str, member: str, default: Any) -> Any:
    """A class attribute a registered backend declares (``isa_cap_env``, ``isa_dependent``), read without
    constructing it; ``default`` for a spec that is no entry point or whose class cannot be imported (its own
    load reports that error)."""
    ep = entry_points().get(spec.partition(":")[0])
    if ep is None:
        return default
    try:
        return getattr(ep.load(), member, default)
    except Exception:
        return default


def declared_name(spec: str) -> str | None:
    """The column name of one of our own backends given without an argument: its entry point's name, which is
    the name its instance says (tests/backends/test_declared_names.py holds every one of ours to it). None for a spec
    with an argument (``onnxruntime:CUDAExecutionProvider`` names its column after it) or code not ours: only
    the backend's own answer names those."""
    if ":" in spec or not is_ours(spec):
        return None
    return spec


def create(spec: str) -> Backend:
    """``NAME`` or ``NAME:ARG`` (e.g. ``onnxruntime:CUDAExecutionProvider``, ``onnx-backend:my_module``)."""
    name, _, arg = spec.partition(":")
    if name == "onnx-backend":
        from conformance.backends.onnx_backend.backend import OnnxBackendAdapter

        return OnnxBackendAdapter(arg)
    eps = entry_points()
    if name not in eps:
        known = ", ".join(sorted(eps)) or "none"
        raise BackendNotFound(f"no backend named {name!r} (installed entry points: {known})")
    factory = eps[name].load()
    return factory(arg) if arg else factory()
