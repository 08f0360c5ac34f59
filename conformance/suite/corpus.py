"""The corpus loader: which files are case files, a case file's cases (its literal cases and its ``import:``
sources), and every case instance under a set of folders.

The pytest plugin (one collector per file), ``conformance list``, ``conformance repro``, ``conformance coverage``
and the benchmarks all read the corpus through this module: a second copy of the walk once chose other suffixes
(``*.yaml`` only), other error handling or no imports, and the tools then disagreed on what the corpus is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from conformance.model import Case, CaseInstance
from conformance.suite.casefile import CaseFileError, LoadedFile

__all__ = ["CASE_SUFFIXES", "CaseFileError", "FileCases", "case_files", "file_cases", "instances",
           "is_case_path"]

#: what a case file is named (the plugin's collector and the folder walk read the same suffixes)
CASE_SUFFIXES = (".yaml", ".yml")


def is_case_path(path: Path) -> bool:
    return path.suffix in CASE_SUFFIXES


def case_files(paths: Iterable[Path]) -> list[Path]:
    """The case files ``paths`` name: a file itself, a folder's case files (recursively, sorted by path)."""
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_file():
            found.append(path)
        else:
            found += sorted(p for p in path.rglob("*") if is_case_path(p) and p.is_file())
    return found


@dataclass(frozen=True)
class FileCases:
    """One case file loaded: the file (domain, errors of single cases) and its cases, imported ones last."""

    loaded: LoadedFile
    cases: list[Case]


def file_cases(path: Path, display: str | None = None, max_elements: int | None = None,
               imports: bool = True) -> FileCases:
    """A case file's cases. ``imports`` False leaves out its ``import:`` sources (onnx node tests). Raises
    CaseFileError when the file as a whole cannot be read; a broken case is one of ``loaded.errors``."""
    from conformance.suite.loader import load_file
    from conformance.suite.sources import imported_cases

    loaded = load_file(path, display=display, max_elements=max_elements)
    return FileCases(loaded, loaded.cases + (imported_cases(loaded) if imports else []))


def instances(paths: Iterable[Path], on_error: Callable[[str], None], imports: bool = True,
              ) -> Iterator[tuple[Path, CaseInstance]]:
    """(file, instance) for every case instance under ``paths``, in file order. A file that cannot be loaded and
    a broken case are reported to ``on_error`` (a message naming file and line) and skipped: the rest loads."""
    from conformance.suite.expand import expand

    for path in case_files(paths):
        try:
            found = file_cases(path, imports=imports)
        except (CaseFileError, ValueError) as exc:
            on_error(str(exc))
            continue
        for error in found.loaded.errors:
            on_error(str(error))
        for case in found.cases:
            for instance in expand(case):
                yield path, instance
