"""Collection: case files → case instances → one item per backend (and the ``reference`` column).

Node ids read like the case ids: ``cases/onnx/AveragePool.yaml::ai.onnx/AveragePool-22/2d_ceil[float32]::onnxruntime``
so ``-k``, ``--deselect`` and node-id arguments work on them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.plugin.items import BrokenCase, CaseFile
from conformance.plugin.state import State, default_case_dirs, state_key


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: an operator conformance case item")
    backends = config.getoption("backend", default=[]) or []
    extra = [Path(p).resolve() for p in (config.getoption("cases", default=[]) or [])]
    explicit_yaml = [a for a in config.args if a.split("::")[0].endswith((".yaml", ".yml"))]
    if not backends and not extra and not explicit_yaml:
        return  # not a conformance run: stay out of the way of ordinary test suites
    dirs = ([] if config.getoption("no_default_cases") else default_case_dirs(config)) + extra
    state = State.create(config, backends, dirs)
    config.stash[state_key] = state
    # A malformed case file is one collection error; every other file still runs.
    config.option.continue_on_collection_errors = True
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(d) for d in dirs]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    state = parent.config.stash.get(state_key, None)
    if state is None or file_path.suffix not in (".yaml", ".yml"):
        return None
    if not state.is_case_file(file_path):
        return None
    return CaseFile.from_parent(parent, path=file_path)


__all__ = ["pytest_configure", "pytest_collect_file", "BrokenCase"]
