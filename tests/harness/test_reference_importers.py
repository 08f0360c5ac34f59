"""The harness core asks the reference in at most two places (the oracle, and the reference column that reports
it); the rest of the core reads the op registry, whose entries carry the reference's schemas. Backends and the
registry (conformance/backends/, conformance/ops/) are not the core and are not counted here."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "conformance"
ALLOWED = {"oracle.py", "reference_column.py"}


def _imports_reference(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
        if any(name.split(".")[0] == "conformance_reference" for name in names):
            return True
    return False


def test_at_most_two_core_modules_import_the_reference() -> None:
    core = [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] not in ("backends", "ops")]
    importers = {str(p.relative_to(PACKAGE)) for p in core if _imports_reference(p)}
    assert importers <= ALLOWED, f"core modules importing the reference: {sorted(importers - ALLOWED)}"
    assert len(importers) <= 2
