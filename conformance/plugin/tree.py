"""The collection tree: a case file, its case instances, and one item per backend column. Collection's state (the
case folders, the case ids seen so far, the columns) is collect.py's, under ``collection_key``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conformance.plugin.item import CaseItem
from conformance.plugin.repro_command import display_path


@dataclass
class Collection:
    """What collecting a conformance run needs: where its cases are and which columns they run on."""

    case_dirs: list[Path]
    explicit_files: set[Path] = field(default_factory=set)  # case files named on the command line
    max_tensor_elements: int | None = None  # --max-tensor-elements (None: the loader's default)
    with_reference: bool = True  # not --no-reference
    columns: list[Any] = field(default_factory=list)  # the columns (session.py's Column values, asked once)
    case_ids: dict[tuple[str, str, int, str], str] = field(default_factory=dict)  # (domain, op, version, id) -> where

    def is_case_file(self, path: Path) -> bool:
        path = path.resolve()
        if path in self.explicit_files:
            return True
        return any(path == d or d in path.parents for d in self.case_dirs)


collection_key = pytest.StashKey[Collection]()


class CaseFileError(Exception):
    """Raised from collection with a message that already names file, line and case id."""


class CaseFile(pytest.File):
    def collect(self) -> list[pytest.Collector]:
        return list(self._children())

    def _children(self) -> Iterator[pytest.Collector]:
        from conformance.oracle import check_reference_accepts
        from conformance.suite.corpus import CaseFileError as LoaderError
        from conformance.suite.corpus import file_cases
        from conformance.suite.expand import expand

        display = display_path(self)
        try:
            limit = self.config.stash[collection_key].max_tensor_elements
            found = file_cases(self.path, display=display or str(self.path), max_elements=limit)
        except LoaderError as exc:
            raise CaseFileError(str(exc)) from None
        cases = found.cases
        for error in found.loaded.errors:
            yield BrokenCase.from_parent(self, name=error.case_id or f"line-{error.line}", error=str(error))
        state = self.config.stash[collection_key]
        for case in cases:
            where = f"{case.file}:{case.line}" if case.line else case.file
            # records are keyed by instance id: a second definition would silently collapse into the first
            firsts = {state.case_ids.setdefault((case.domain, case.op, v, case.id), where) for v in case.versions}
            clash = sorted(f for f in firsts if f != where)
            if clash:
                yield BrokenCase.from_parent(self, name=case.id, error=f"{where}: case {case.id!r}: duplicate "
                                             f"case id: {case.domain}::{case.op} {case.id!r} is defined at "
                                             f"{clash[0]} for the same version")
                continue
            try:
                instances = expand(case)
                for instance in instances:
                    check_reference_accepts(instance, limit)
            except ValueError as exc:  # a guard's message: what is wrong with the case
                yield BrokenCase.from_parent(self, name=case.id, error=f"{where}: case {case.id!r}: {exc}")
                continue
            except Exception as exc:  # a case that cannot become instances costs that case only
                yield BrokenCase.from_parent(self, name=case.id,
                                             error=f"{where}: case {case.id!r}: {type(exc).__name__}: {exc}")
                continue
            by_version: dict[str, list] = {}
            for instance in instances:
                by_version.setdefault(instance.id.partition("[")[0], []).append(instance)
            for name, instances in by_version.items():
                yield CaseVersion.from_parent(self, name=name, instances=instances)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, CaseFileError):
            return str(excinfo.value)
        # pytest's Collector.repr_failure takes no style: passing one turned any other error into an INTERNALERROR
        return super().repr_failure(excinfo)


class BrokenCase(pytest.Collector):
    """A case that does not validate: one collection error naming file, line and case id."""

    def __init__(self, *, error: str, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def collect(self) -> list:
        raise CaseFileError(self.error)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        return str(excinfo.value)


class CaseVersion(pytest.Collector):
    """A case at one version (``ai.onnx/AveragePool-22/2d_ceil``); its items are ``<backend>[<dtype>[-layout]]``,
    so node ids read ``...::ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]`` (the parameters last, as
    pytest resolves and prints them)."""

    def __init__(self, *, instances, **kwargs):
        super().__init__(**kwargs)
        self.instances = instances

    def collect(self) -> list[pytest.Item]:
        state = self.config.stash[collection_key]
        items = []
        for instance in self.instances:
            params = "[" + instance.id.partition("[")[2]
            has_claims = instance.expect_error or instance.case.spec_example is not None or any(
                t.data is not None or t.array is not None or t.shape is not None for t in instance.outputs
            ) or instance.case.configuration is not None
            # the reference column exists where the case makes claims of its own (literal outputs, a spec
            # example, an expected rejection) and for configuration cases: their records are the spec semantics
            # of the cross-spec page
            if state.with_reference and has_claims:
                items.append(CaseItem.from_parent(self, name=f"reference{params}", instance=instance, column=None))
            for column in state.columns:
                items.append(CaseItem.from_parent(self, name=f"{column.name}{params}", instance=instance,
                                                  column=column))
        return items
