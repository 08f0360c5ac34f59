"""The hooks the plugin's features talk through (registered by ``pytest_addhooks`` in plugin/__init__.py).

Each feature keeps its own state under its own ``pytest.StashKey`` and imports no other feature: what one needs
from another it asks for here, as pytest's own plugins do. A feature left out (``-p no:conformance.plugin.X``)
answers nothing, and its askers fall back to running without it (no ISA axis, no expectations, no batches).
"""

from __future__ import annotations

from typing import Any

import pluggy
import pytest

hookspec = pluggy.HookspecMarker("pytest")


@hookspec
def pytest_conformance_configure(config: pytest.Config) -> None:
    """A conformance run was asked for (collect's ``pytest_configure``, after the case folders and the environment
    checked out): each feature makes its state. The session's backends first (``tryfirst``), then the others, which
    may ask for them; a usage error here stops the run before anything runs."""


@hookspec(firstresult=True)
def pytest_conformance_columns(config: pytest.Config) -> list[tuple[Any, str]] | None:
    """The run's backend columns (backends/column.py ``Column`` values: ``.backend`` is the backend) with the
    ``--backend`` spec that selected each (an ISA column shares its backend's spec), in column order (session.py)."""


@hookspec(firstresult=True)
def pytest_conformance_isa_levels(config: pytest.Config) -> list[str] | None:
    """The ISA levels ``--isa`` asks for ([]: none; isa_axis.py), a usage error when it names an unknown one."""


@hookspec(firstresult=True)
def pytest_conformance_isa_columns(config: pytest.Config, spec: str, native: Any, timeout: float,
                                   start: float | None) -> list[Any] | None:
    """The columns of one backend spec: ``native`` (its plain column, already built) and one per ISA level asked
    (isa_axis.py). None: the plain column only."""


@hookspec(firstresult=True)
def pytest_conformance_isa_axis(config: pytest.Config) -> dict[str, str] | None:
    """What the ISA axis did per backend spec, for the results file's meta line and the summary ({}: no axis)."""


@hookspec(firstresult=True)
def pytest_conformance_expectations(config: pytest.Config) -> Any:
    """The run's expectations (conformance.expectations.Expectations; gate.py), None without them."""


@hookspec(firstresult=True)
def pytest_conformance_batched(item: pytest.Item) -> Any:
    """The item's answer from a batch of its backend (backends.batching.Batched; batching.py), None: run alone."""


@hookspec
def pytest_conformance_records(session: pytest.Session, records: list) -> None:
    """The controller wrote the results file (results.py); ``records`` are those it heard of. The gate checks its
    expectations against them and sets the session's exit status for ``--strict-expectations``."""


@hookspec
def pytest_conformance_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Lines after the conformance summary's own (results.py), printed when it is."""
