"""The files of conformance/ import each other without circles: the graph whose nodes are the modules (a package
is its ``__init__.py``) and whose edges are the imports between them has no cycle.

Every import counts, the ones under ``if TYPE_CHECKING:`` and inside functions too: a type-only or deferred import
hides a circle from Python, not from a reader, who still cannot read either file without the other. The folder
graph (test_folder_graph.py) keeps the rooms in order; this one keeps the files of a room in order.

``from package import name`` is an edge to the sub-module ``package.name`` when there is one (importing a
sub-module runs its package's ``__init__.py`` first whatever the spelling, so that is no edge of the file's own),
else to the package.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "conformance"

#: No circle is left: compare/models.py declares what its bounds read of a policy (``models.Policy``, a Protocol
#: that tolerance.py's ``Policy`` satisfies) and ``Comparison`` is a leaf (compare/comparison.py). A new circle
#: anywhere fails.
KNOWN: list[list[str]] = []


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Dotted name -> file, for every module of ``package`` (``conformance.report`` -> its ``__init__.py``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported(path: Path, name: str, known: dict[str, Path]) -> Iterator[str]:
    """The dotted names of the modules the file ``path`` (module ``name``) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                yield sub if sub in known else module


def _owner(module: str, known: dict[str, Path]) -> str | None:
    """The module of the package a dotted name belongs to (``conformance.x.y.Name`` -> ``conformance.x.y``)."""
    while module and module not in known:
        module = module.rpartition(".")[0]
    return module or None


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the modules of the package it imports."""
    known = modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        targets = {_owner(m, known) for m in _imported(path, name, known) if m.split(".")[0] == package.name}
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative: the package is deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_files_of_conformance_import_each_other_without_circles() -> None:
    graph = import_graph()
    # the walk ran
    assert {"conformance.pipeline.runner", "conformance.suite.loader", "conformance.cli.run"} <= set(graph)
    found = cycles(graph)
    detail = [f"{a} -> {b}" for loop in found for a in loop for b in sorted(graph[a]) if b in loop]
    assert found == KNOWN, "files importing each other in a circle:\n" + "\n".join(detail)


def test_a_circle_through_a_type_only_or_deferred_import_is_found(tmp_path: Path) -> None:
    package = tmp_path / "conformance"
    (package / "room").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "room" / "__init__.py").write_text("from .a import f\n")
    (package / "room" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from conformance.room.b import B\ndef f(): ...\n")
    (package / "room" / "b.py").write_text("def g():\n    from . import a\n")
    (package / "room" / "c.py").write_text("from conformance.room import b\n")  # the sub-module, not __init__
    graph = import_graph(package)
    assert graph["conformance.room.c"] == {"conformance.room.b"}
    assert cycles(graph) == [["conformance.room.a", "conformance.room.b"]]
    assert cycles({"x": {"y"}, "y": set()}) == []
