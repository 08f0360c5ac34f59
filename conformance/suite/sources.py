"""Case sources other than literal YAML cases (``import:`` entries of a case file).

    import: {from: onnx-node-tests, pattern: "test_averagepool_*"}
    import: {from: onnx-backend-tests, kind: node}    # every onnx backend test, each case its own model
    import:
      - {from: onnx-node-tests, pattern: "test_averagepool_*"}
      - {from: onnx-node-tests, pattern: "test_globalaveragepool*", exclude: ["*_expanded*"]}

``from`` names the source; unknown sources are an error naming the file. Imported cases must be of the file's
op and domain (an import that matches nothing is an error too: a renamed upstream test must not go unnoticed),
except ``onnx-backend-tests``: whole models of any op, in a file that gives no op or domain (suite/backend_tests.py).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable

from conformance.model import Case
from conformance.suite.casefile import CaseFileError, LoadedFile

IMPORT_KEYS = {"from", "pattern", "exclude", "kind"}


def _onnx_node_tests(loaded: LoadedFile, entry: dict) -> list[Case]:
    from conformance.suite import onnx_node_tests

    pattern = entry.get("pattern", "test_*")
    excludes = entry.get("exclude") or []
    if isinstance(excludes, str):
        excludes = [excludes]
    cases = []
    line = _entry_line(loaded, str(pattern))
    for test in onnx_node_tests.matching(str(pattern)):
        if any(fnmatch.fnmatchcase(test.name, e) for e in excludes):
            continue
        if test.op != loaded.op or test.domain != loaded.domain:
            continue
        cases.append(onnx_node_tests.to_case(test, file=loaded.path, line=line))
    if not cases:
        raise CaseFileError(loaded.path, 0, None, f"import from onnx-node-tests: no {loaded.op} node test of the "
                            f"installed onnx matches pattern {pattern!r}")
    return cases


def _onnx_backend_tests(loaded: LoadedFile, entry: dict) -> list[Case]:
    from conformance.suite import backend_tests

    kind = entry.get("kind", "node")
    pattern = str(entry.get("pattern", "test_*"))
    excludes = entry.get("exclude") or []
    excludes = [excludes] if isinstance(excludes, str) else excludes
    try:
        tests = backend_tests.load(str(kind))
    except ValueError as exc:
        raise CaseFileError(loaded.path, 0, None, f"import from onnx-backend-tests: {exc}") from None
    line = _entry_line(loaded, str(kind), "onnx-backend-tests")
    cases = [backend_tests.to_case(t, file=loaded.path, line=line) for t in tests
             if fnmatch.fnmatchcase(t.name, pattern) and not any(fnmatch.fnmatchcase(t.name, e) for e in excludes)]
    if not cases:
        raise CaseFileError(loaded.path, 0, None, f"import from onnx-backend-tests: no {kind} test of the installed "
                            f"onnx matches pattern {pattern!r}")
    return cases


def _entry_line(loaded: LoadedFile, pattern: str, source: str = "onnx-node-tests") -> int:
    """The line of the import entry (imported cases report there); 1 when it cannot be found."""
    try:
        with open(loaded.path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return 1
    for number, text in enumerate(lines, 1):
        if pattern in text and source in text:
            return number
    for number, text in enumerate(lines, 1):
        if text.startswith("import:"):
            return number
    return 1


SOURCES: dict[str, Callable[[LoadedFile, dict], list[Case]]] = {
    "onnx-node-tests": _onnx_node_tests,
    "onnx-backend-tests": _onnx_backend_tests,
}


def imported_cases(loaded: LoadedFile) -> list[Case]:
    cases: list[Case] = []
    for entry in loaded.imports:
        if not isinstance(entry, dict):
            raise CaseFileError(loaded.path, 0, None, f"an import entry is a mapping {{from: SOURCE, pattern: GLOB}}, "
                                f"got {entry!r}")
        unknown = set(entry) - IMPORT_KEYS
        if unknown:
            raise CaseFileError(loaded.path, 0, None, f"import: unknown key(s) {', '.join(sorted(unknown))}")
        kind = entry.get("from")
        source = SOURCES.get(kind)
        if source is None:
            raise CaseFileError(loaded.path, 0, None, f"unknown import source {kind!r} (known: {', '.join(SOURCES)})")
        cases.extend(source(loaded, entry))
    return cases
