"""Case sources other than literal YAML cases (``import:`` entries of a case file)."""

from __future__ import annotations

from conformance.suite.loader import LoadedFile
from conformance.suite.model import Case


def imported_cases(loaded: LoadedFile) -> list[Case]:
    cases: list[Case] = []
    for entry in loaded.imports:
        kind = entry.get("from") if isinstance(entry, dict) else entry
        raise ValueError(f"{loaded.path}: unknown import source {kind!r}")
    return cases
