"""Backends that name modules for their column's fork server to import ahead (``Backend.preload_modules``)."""

from __future__ import annotations

from isolation_fakes import CorrectBackend


class PreloadingBackend(CorrectBackend):
    name = "fake-preloading"
    preload_modules = ("preload_marker",)

    def __init__(self) -> None:
        import preload_marker  # noqa: F401 - what a runtime's constructor imports


class TransientThreadBackend(CorrectBackend):
    name = "fake-transient-thread"
    preload_modules = ("transient_thread",)


class RegistryProbeBackend(CorrectBackend):
    """Writes, when constructed, whether its process has the op registry built already (FAKE_REGISTRY_LOG)."""

    name = "fake-registry-probe"

    def __init__(self) -> None:
        import os

        from conformance import ops

        with open(os.environ["FAKE_REGISTRY_LOG"], "a") as log:
            log.write(f"{ops._table.cache_info().currsize}\n")
