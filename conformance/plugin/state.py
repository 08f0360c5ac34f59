"""Per-session state of the plugin: selected backends, case folders, collected result records."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conformance.backends.base import Backend
from conformance.records import ResultRecord

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
    #: the line each of ``records`` arrived as (by id()): written back as received, and a part file's copy of it
    #: is recognised by its text instead of parsed again
    record_lines: dict[int, str] = field(default_factory=dict)
    expectations: Any = None  # conformance.expectations.Expectations
    results_path: str | None = None
    junit_path: str | None = None  # --junitxml, written from the records at session finish
    max_tensor_elements: int | None = None  # --max-tensor-elements (None: the loader's default)
    stale_lines: list[str] = field(default_factory=list)  # set at session finish, printed in the summary
    part: Any = None  # this process's durable.PartWriter, opened with its first record
    case_ids: dict[tuple[str, str, int, str], str] = field(default_factory=dict)  # (domain, op, version, id) -> where
    #: the --backend spec of each of ``backends`` (an ISA column shares its spec: several columns, one spec)
    column_specs: list[str] = field(default_factory=list)

    def is_case_file(self, path: Path) -> bool:
        path = path.resolve()
        if path in self.explicit_files:
            return True
        return any(path == d or d in path.parents for d in self.case_dirs)

    @property
    def with_reference(self) -> bool:
        return not self.config.getoption("no_reference")


def is_conformance_run(config: pytest.Config) -> bool:
    """Asked for cases: ``--backend``, ``--cases`` or a case file on the command line."""
    return bool(config.getoption("backend", default=[]) or config.getoption("cases", default=[])
                or any(a.split("::")[0].endswith((".yaml", ".yml")) for a in config.args))
