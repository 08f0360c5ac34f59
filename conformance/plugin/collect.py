"""Collection: case files → case instances → one item per backend (and the ``reference`` column).

Node ids read like the case ids: ``cases/onnx/AveragePool.yaml::ai.onnx/AveragePool-22/2d_ceil[float32]::onnxruntime``
so ``-k``, ``--deselect`` and node-id arguments work on them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.plugin.conformance_run import is_conformance_run
from conformance.plugin.tree import BrokenCase, CaseFile, Collection, collection_key
from conformance.suite.corpus import is_case_path


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption(
        "--backend", action="append", default=[], metavar="NAME",
        help="run the cases on backend NAME (repeatable, comma lists; 'all' = every installed backend; "
        "NAME:ARG passes an argument, e.g. onnxruntime:CUDAExecutionProvider, onnx-backend:MODULE)",
    )
    group.addoption(
        "--cases", action="append", default=[], metavar="DIR",
        help="case folder or file added to the shipped corpus (repeatable; --no-default-cases: instead of it)",
    )
    group.addoption("--no-default-cases", action="store_true", help="leave out the shipped corpus")
    group.addoption("--no-reference", action="store_true", help="skip the 'reference' column items")
    group.addoption(
        "--max-tensor-elements", type=int, default=None, metavar="N",
        help="a case tensor with more elements is a collection error (default 4194304; "
        "env CONFORMANCE_MAX_TENSOR_ELEMENTS)",
    )


def default_case_dirs(config: pytest.Config | None = None) -> list[Path]:
    from conformance.shipped import default_case_dirs as shipped

    return shipped()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: an operator conformance case item")
    if not is_conformance_run(config):
        return  # not a conformance run: stay out of the way of ordinary test suites
    extra = [Path(p).resolve() for p in (config.getoption("cases", default=[]) or [])]
    dirs = ([] if config.getoption("no_default_cases") else default_case_dirs(config)) + extra
    config.args[:] = [resolve_case_arg(arg, config.invocation_params.dir, dirs) for arg in config.args]
    from conformance.suite import guards

    errors = guards.env_errors()
    if errors:
        raise pytest.UsageError("; ".join(errors))
    # the other features make their state (the backends first): a usage error stops the run here
    config.hook.pytest_conformance_configure(config=config)
    explicit = {Path(a.split("::")[0]).resolve() for a in config.args if a.split("::")[0].endswith((".yaml", ".yml"))}
    columns = config.hook.pytest_conformance_columns(config=config) or []
    config.stash[collection_key] = Collection(
        dirs, explicit, max_tensor_elements=config.getoption("max_tensor_elements", default=None),
        with_reference=not config.getoption("no_reference"), columns=[column for column, _ in columns])
    # A malformed case file is one collection error; every other file still runs.
    config.option.continue_on_collection_errors = True
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(d) for d in dirs]


def resolve_case_arg(arg: str, here: Path, dirs: list[Path]) -> str:
    """A node id as pytest printed it, passed back from anywhere: its file part is relative to pytest's rootdir
    or, for the shipped corpus and case folders outside the rootdir, to the case folder. When it names no file
    from the invocation folder, look it up in the case folders (first match) and make it absolute."""
    path, sep, rest = arg.partition("::")
    if not path.endswith((".yaml", ".yml")) or (here / path).exists() or Path(path).is_absolute():
        return arg
    for folder in dirs:
        for base in (folder, folder.parent):  # relative to the folder, or naming it (``cases/onnx/x.yaml``)
            candidate = base / path
            if candidate.is_file():
                return str(candidate) + sep + rest
    return arg


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    collection = parent.config.stash.get(collection_key, None)
    if collection is None or not is_case_path(file_path):
        return None
    if not collection.is_case_file(file_path):
        return None
    return CaseFile.from_parent(parent, path=file_path)


__all__ = ["pytest_configure", "pytest_collect_file", "BrokenCase"]
