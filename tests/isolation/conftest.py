"""Shared helpers for the isolation tests: case instances built directly from the case model."""

from __future__ import annotations

import pytest
from isolation_helpers import alive, spec_of

from conformance.backends.isolation import isolated_backend


@pytest.fixture
def isolated():
    """``isolated(cls, timeout=...)``: an IsolatedBackend over a fake, closed after the test."""
    made: list[isolated_backend.IsolatedBackend] = []

    def make(cls: type, timeout: float = 30.0) -> isolated_backend.IsolatedBackend:
        backend = isolated_backend.IsolatedBackend(spec_of(cls), timeout)
        made.append(backend)
        return backend

    yield make
    for backend in made:
        pid = backend.pid
        backend.close()
        assert pid is None or not alive(pid)

