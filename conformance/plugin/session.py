"""The session's state made from the command line: the backends (their ISA columns too), the results path checked
before anything runs, the expectations loaded. The features' modules are read here, so that state.py, which they
all read, reads none of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.plugin.checks import memory_size, seconds
from conformance.plugin.state import State
from conformance.records import base_backend


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption(
        "--case-timeout", type=seconds, default=60.0, metavar="SECONDS",
        help="an isolated backend that gives no result within SECONDS is killed: status timeout (0: no limit)",
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


def create_state(config: pytest.Config, backend_values: list[str], dirs: list[Path]) -> State:
    from conformance.backends.base import Backend, NotInstalled
    from conformance.backends.discovery import installed
    from conformance.backends.isolation import isolated_backend
    from conformance.plugin import isa_axis
    from conformance.plugin.checks import worker_memory

    specs = installed.parse_selection(backend_values)
    levels = isa_axis.requested_levels(config)
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
            timeout = config.getoption("case_timeout", 60.0)
            # --case-timeout bounds every phase, the backend's construction in its worker too, with a floor:
            # loading a runtime on a busy machine is not a case's cost (and a failed start is not retried)
            start = max(timeout, isolated_backend.START_TIMEOUT_FLOOR) if timeout > 0 else 0
            native = isolated_backend.wrap(None, spec, config.getoption("isolation", "auto"), timeout,
                                    start_timeout=start, memory_limit=limit)
            for column in isa_axis.columns(spec, levels, native, timeout, start):
                if isinstance(column, isolated_backend.IsolatedBackend):  # an ISA column's worker: the same limits
                    column.memory_limit = limit
                    column.fresh = config.getoption("isolation", "auto") == "item"
                backends.append(column)
                column_specs.append(spec)
                plugin_names.append(native.name)
        except Exception as exc:
            raise pytest.UsageError(f"--backend={spec}: cannot load it: {type(exc).__name__}: {exc}") from exc
    from conformance.plugin.checks import check_backend_names, check_results_path
    from conformance.plugin.results import results_path

    check_backend_names(column_specs, [b.name for b in backends], plugin_names)
    if not hasattr(config, "workerinput"):  # the controller checks once, before any worker starts
        check_results_path(results_path(config), create=not config.option.collectonly)
    paths = [a.split("::")[0] for a in config.args]
    explicit = {Path(p).resolve() for p in paths if p.endswith((".yaml", ".yml"))}
    from conformance.plugin.gate import load_expectations

    state = State(config, specs, dirs, explicit, backends, column_specs=column_specs)
    state.expectations, _ = load_expectations(config, list(dict.fromkeys(base_backend(b.name) for b in backends)))
    return state
