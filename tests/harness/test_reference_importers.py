"""Nothing outside the oracle calls the reference. The harness core asks it in at most two places (the oracle, and
reference_shapes.py: the shape inference the registry's coverage readers need, below the oracle's floor);
backends (conformance/backends/) ask the oracle or the registry, never the reference; the op registry
(conformance/ops/) carries the reference's schemas as data: an entry imports its op's
reference module for ``SCHEMA`` and its constants (upper-case names) and ``conformance_reference.schema``, and
calls no reference function; only the registry's discovery (ops/__init__.py) imports the package itself."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "conformance"
ALLOWED = {"oracle.py", "reference_shapes.py"}


def _reference_imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    """(module, names imported from it) of every absolute import of the reference package."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names if a.name.split(".")[0] == "conformance_reference"]
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == \
                "conformance_reference":
            found.append((node.module or "", [a.asname or a.name for a in node.names]))
    return found


def _imports_reference(path: Path) -> bool:
    return bool(_reference_imports(ast.parse(path.read_text(encoding="utf-8"))))


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_at_most_two_core_modules_import_the_reference() -> None:
    core = [p for p in _modules() if p.relative_to(PACKAGE).parts[0] not in ("backends", "ops")]
    importers = {str(p.relative_to(PACKAGE)) for p in core if _imports_reference(p)}
    assert importers <= ALLOWED, f"core modules importing the reference: {sorted(importers - ALLOWED)}"
    assert len(importers) <= 2


def test_no_backend_imports_the_reference() -> None:
    importers = [str(p.relative_to(PACKAGE)) for p in _modules()
                 if p.relative_to(PACKAGE).parts[0] == "backends" and _imports_reference(p)]
    assert importers == [], \
        f"backends importing the reference (ask conformance.oracle or the registry): {importers}"


def _registry_misuse(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    problems, op_modules = [], set()
    for module, names in _reference_imports(tree):
        if module == "conformance_reference.schema":
            continue  # the schema's classes and helpers: data about ops
        if module != "conformance_reference" or not names:
            problems.append(f"imports {module} itself")
        else:
            op_modules.update(n for n in names if n != "schema")  # the schema module: as .schema above
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in op_modules \
                and not node.attr.isupper():
            problems.append(f"uses {node.value.id}.{node.attr} (line {node.lineno})")
    return problems


def test_registry_entries_read_the_reference_schemas_only() -> None:
    found = {str(p.relative_to(PACKAGE)): _registry_misuse(p) for p in _modules()
             if p.relative_to(PACKAGE).parts[0] == "ops" and p.name != "__init__.py"}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_registry_check_sees_a_call(tmp_path: Path) -> None:
    """The check above would fail for an entry that calls its reference module or imports the whole package."""
    entry = tmp_path / "entry.py"
    entry.write_text("from conformance_reference import onnx_maxpool\nX = onnx_maxpool.SCHEMA\n"
                     "Y = onnx_maxpool.output_shapes(1, [], {})\n", encoding="utf-8")
    assert _registry_misuse(entry) == ["uses onnx_maxpool.output_shapes (line 3)"]
    entry.write_text("import conformance_reference as reference\n", encoding="utf-8")
    assert _registry_misuse(entry) == ["imports conformance_reference itself"]
