"""Per-session state of the plugin: selected backends, case folders, collected result records."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conformance.backends.base import Backend
from conformance.records import ResultRecord, base_backend

state_key = pytest.StashKey["State"]()


def default_case_dirs(config: pytest.Config | None = None) -> list[Path]:
    from conformance.shipped import default_case_dirs as shipped

    return shipped()


@dataclass
class State:
    config: pytest.Config
    backend_specs: list[str]
    case_dirs: list[Path]
    explicit_files: set[Path] = field(default_factory=set)
    backends: list[Backend] = field(default_factory=list)
    records: list[ResultRecord] = field(default_factory=list)
    expectations: Any = None  # conformance.expectations.Expectations
    results_path: str | None = None
    stale_lines: list[str] = field(default_factory=list)  # set at session finish, printed in the summary
    part: Any = None  # this process's durable.PartWriter, opened with its first record
    case_ids: dict[tuple[str, str, int, str], str] = field(default_factory=dict)  # (domain, op, version, id) -> where
    #: the --backend spec of each of ``backends`` (an ISA column shares its spec: several columns, one spec)
    column_specs: list[str] = field(default_factory=list)

    @classmethod
    def create(cls, config: pytest.Config, backend_values: list[str], dirs: list[Path]) -> State:
        from conformance.backends import isolation, registry
        from conformance.plugin import isa_axis
        from conformance.plugin.checks import worker_memory

        specs = registry.parse_selection(backend_values)
        levels = isa_axis.requested_levels(config)
        limit = worker_memory(config)
        backends: list[Backend] = []
        column_specs: list[str] = []
        for spec in specs:
            try:
                timeout = config.getoption("case_timeout", 60.0)
                # --case-timeout bounds every phase, the backend's construction in its worker too, with a floor:
                # loading a runtime on a busy machine is not a case's cost (and a failed start is not retried)
                start = max(timeout, isolation.START_TIMEOUT_FLOOR) if timeout > 0 else 0
                native = isolation.wrap(None, spec, config.getoption("isolation", "auto"), timeout,
                                        start_timeout=start, memory_limit=limit)
                for column in isa_axis.columns(spec, levels, native, timeout, start):
                    if isinstance(column, isolation.IsolatedBackend):  # an ISA column's worker: the same limit
                        column.memory_limit = limit
                    backends.append(column)
                    column_specs.append(spec)
            except Exception as exc:
                raise pytest.UsageError(f"--backend={spec}: cannot load it: {type(exc).__name__}: {exc}") from exc
        from conformance.plugin.checks import check_backend_names, check_results_path
        from conformance.plugin.results import results_path

        check_backend_names(column_specs, [b.name for b in backends])
        if not hasattr(config, "workerinput"):  # the controller checks once, before any worker starts
            check_results_path(results_path(config), create=not config.option.collectonly)
        paths = [a.split("::")[0] for a in config.args]
        explicit = {Path(p).resolve() for p in paths if p.endswith((".yaml", ".yml"))}
        from conformance.plugin.gate import load_expectations

        state = cls(config, specs, dirs, explicit, backends, column_specs=column_specs)
        state.expectations, _ = load_expectations(config, list(dict.fromkeys(base_backend(b.name) for b in backends)))
        return state

    def is_case_file(self, path: Path) -> bool:
        path = path.resolve()
        if path in self.explicit_files:
            return True
        return any(path == d or d in path.parents for d in self.case_dirs)

    @property
    def with_reference(self) -> bool:
        return not self.config.getoption("no_reference")
