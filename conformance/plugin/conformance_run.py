"""Whether a pytest run is a conformance run: every feature stays inert in an ordinary test suite."""

from __future__ import annotations

import pytest


def is_conformance_run(config: pytest.Config) -> bool:
    """Asked for cases: ``--backend``, ``--cases`` or a case file on the command line."""
    return bool(config.getoption("backend", default=[]) or config.getoption("cases", default=[])
                or any(a.split("::")[0].endswith((".yaml", ".yml")) for a in config.args))
