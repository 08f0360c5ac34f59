"""The run's backends made from the command line: each ``--backend`` spec checked installed and loadable, wrapped in
its isolation, and its columns (one per ISA level the ISA axis adds), each entered once (backends/column.py: its
name, version, ISA level, precision and tolerance scale read and checked here, the same for every item); the other
features ask for them through ``pytest_conformance_columns``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from conformance.plugin.checks import check_backend_names, memory_size, seconds, worker_memory


@dataclass
class Columns:
    """The backend columns of a run, each with the --backend spec that selected it."""

    specs: list[str]  # the --backend selection, parsed
    columns: list[Any] = field(default_factory=list)  # backends/column.py's Column of each, in column order
    column_specs: list[str] = field(default_factory=list)  # an ISA column shares its backend's spec


columns_key = pytest.StashKey[Columns]()
#: the key of the controller's parsed ``--backend`` selection in an xdist worker's ``workerinput``: ``all`` is
#: resolved once, by the controller (it constructs every installed backend to see that it loads: ~1.8 s), and
#: every worker makes the same columns from it
WORKER_SPECS = "conformance_backend_specs"
#: seconds a case of an isolated backend may take when --case-timeout is not given
CASE_TIMEOUT = 60.0


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption(
        "--case-timeout", type=seconds, default=None, metavar="SECONDS",
        help=f"an isolated backend that gives no result within SECONDS is killed: status timeout (default "
        f"{CASE_TIMEOUT:g}; 0: no limit). With --isolation=none no case can be stopped: giving both is a usage error",
    )
    group.addoption(
        "--worker-memory", type=memory_size, default=None, metavar="SIZE",
        help="an isolated backend's worker holding more resident memory is killed: status crash (e.g. 4G, 512M; "
        "0: no limit; default 4G or env CONFORMANCE_WORKER_MEMORY)",
    )
    group.addoption(
        "--isolation", choices=("auto", "process", "item", "none"), default="auto",
        help="run backends in worker processes: auto = every third-party backend and our native ones that can abort "
        "(default), process = all, item = all, a fresh worker for every case (no batches; what conformance verify "
        "runs alone), none = in-process (a crash ends the run)",
    )


@pytest.hookimpl(tryfirst=True)  # before the features that ask for the columns
def pytest_conformance_configure(config: pytest.Config) -> None:
    config.stash[columns_key] = create_columns(config, config.getoption("backend", default=[]) or [])


def pytest_conformance_columns(config: pytest.Config) -> list[tuple[Any, str]] | None:
    columns = config.stash.get(columns_key, None)
    return None if columns is None else list(zip(columns.columns, columns.column_specs))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # noqa: ANN001 - xdist's WorkerController
    columns = node.config.stash.get(columns_key, None)
    if columns is not None:
        node.workerinput[WORKER_SPECS] = list(columns.specs)


def case_timeout(config: pytest.Config) -> float:
    """``--case-timeout``, or CASE_TIMEOUT when not given. An in-process backend (``--isolation=none``) cannot be
    stopped: a timeout given with it would be ignored without a word (a 20 s sleep passed a 3 s timeout), so the
    two together are a usage error (0, no limit, goes with anything)."""
    given = config.getoption("case_timeout", None)
    if given and config.getoption("isolation", "auto") == "none":
        raise pytest.UsageError(f"--case-timeout={given:g} with --isolation=none: an in-process backend cannot be "
                                "stopped, so no case would be timed out; use --isolation=process (or auto, which "
                                "runs third-party backends in workers), or --case-timeout=0")
    return CASE_TIMEOUT if given is None else float(given)


def create_columns(config: pytest.Config, backend_values: list[str]) -> Columns:
    from conformance.backends.base import Backend, NotInstalled
    from conformance.backends.column import enter
    from conformance.backends.discovery import installed
    from conformance.backends.isolation import isolated_backend

    timeout = case_timeout(config)
    handed = (getattr(config, "workerinput", None) or {}).get(WORKER_SPECS)
    specs = list(handed) if handed is not None else installed.parse_selection(backend_values)
    levels = config.hook.pytest_conformance_isa_levels(config=config) or []
    limit = worker_memory(config)
    backends: list[Backend] = []
    column_specs: list[str] = []  # the spec of each column (an ISA column shares its backend's spec)
    plugin_names: list[str] = []  # the name each column's plugin declared (an ISA column's adds @level)
    for spec in specs:
        try:  # a runtime that is absent, a plugin that cannot be imported: said before any item runs, not as a
            # column of errors (its import is tried in a fresh interpreter, once: by the controller, not per worker)
            installed.check(spec, imports=not hasattr(config, "workerinput"))
        except NotInstalled as exc:
            raise pytest.UsageError(f"--backend={spec}: not installed: {exc} (`conformance backends` lists the "
                                    "installed backends)") from None
        except installed.CannotImport as exc:
            raise pytest.UsageError(f"--backend={spec}: cannot import it: {exc}") from None
        except Exception as exc:  # there but unusable (e.g. two oneDNN wheels' copies of one library)
            raise pytest.UsageError(f"--backend={spec}: cannot load it: {type(exc).__name__}: {exc}") from exc
        try:
            # --case-timeout bounds every phase, the backend's construction in its worker too, with a floor:
            # loading a runtime on a busy machine is not a case's cost (and a failed start is not retried)
            start = max(timeout, isolated_backend.START_TIMEOUT_FLOOR) if timeout > 0 else 0
            native = isolated_backend.wrap(None, spec, config.getoption("isolation", "auto"), timeout,
                                    start_timeout=start, memory_limit=limit)
            built = config.hook.pytest_conformance_isa_columns(config=config, spec=spec, native=native,
                                                               timeout=timeout, start=start) if levels else None
            for column in built or [native]:
                if isinstance(column, isolated_backend.IsolatedBackend):  # an ISA column's worker: the same limits
                    column.memory_limit = limit
                    column.fresh = config.getoption("isolation", "auto") == "item"
                backends.append(column)
                column_specs.append(spec)
                plugin_names.append(native.name)
        except Exception as exc:
            raise pytest.UsageError(f"--backend={spec}: cannot load it: {type(exc).__name__}: {exc}") from exc
    check_backend_names(column_specs, [b.name for b in backends], plugin_names)
    # entered once, here: what a column is does not change from item to item, and an item's record must not
    # depend on which item asked first (a worker that failed to restart answered "" for the ISA level after it)
    return Columns(specs, [enter(backend) for backend in backends], column_specs)
