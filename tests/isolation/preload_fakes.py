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
