"""The folders of conformance/ import each other without loops: the graph whose nodes are the entries of
conformance/ (a sub-package, or a top-level module) and whose edges are the imports between them is a DAG.

A loop between folders is how a leaf module ends up in the wrong folder (a case model in suite/ that ops/ and
backends/ need, a fuzz draft that the ops' strategies need): the folders above can then no longer be read, tested
or imported without the ones below them pulling them back in. Every import counts, the ones inside functions and
under ``TYPE_CHECKING`` too: a deferred import hides the loop from Python, not from a reader.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "conformance"


def _node(module: str, package: Path) -> str | None:
    """The graph node a dotted module name belongs to: ``conformance.suite.loader`` -> ``suite``,
    ``conformance.oracle`` -> ``pipeline``; None outside the package or for the package itself."""
    parts = module.split(".")
    if parts[0] != "conformance" or len(parts) < 2:
        return None
    if (package / parts[1]).is_dir() or (package / f"{parts[1]}.py").is_file():
        return parts[1]
    return None  # ``from conformance import __version__``: a name of the package's __init__


def _imports(path: Path, root: Path) -> Iterator[str]:
    """Every module name ``path`` imports (``from X import y`` yields X and X.y: y may be a sub-module)."""
    rel = path.relative_to(root).with_suffix("").parts
    package = rel[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


def folder_graph(package: Path = PACKAGE) -> dict[str, dict[str, set[str]]]:
    """node -> {imported node: the files whose imports make that edge}."""
    graph: dict[str, dict[str, set[str]]] = {}
    for path in sorted(package.rglob("*.py")):
        source = path.relative_to(package).parts[0].removesuffix(".py")
        edges = graph.setdefault(source, {})
        for module in _imports(path, package.parent):
            target = _node(module, package)
            if target is not None and target != source:
                edges.setdefault(target, set()).add(str(path.relative_to(package.parent)))
    return graph


def cycles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan): each is a set of folders in a loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_folders_of_conformance_import_each_other_without_loops() -> None:
    graph = folder_graph()
    # the walk found the package
    assert {"suite", "ops", "fuzz", "compare", "backends", "oracle", "pipeline"} <= set(graph)
    loops = cycles(graph)
    detail = [f"{a} -> {b}: {sorted(graph[a][b])[:3]}" for loop in loops for a in loop for b in graph[a] if b in loop]
    assert loops == [], "folders importing each other in a loop:\n" + "\n".join(detail)


def test_a_loop_is_found() -> None:
    # the detector itself: a loop through three folders and one beside it, function-level imports included
    graph = {"ops": {"compare": {"a"}}, "compare": {"suite": {"b"}}, "suite": {"ops": {"c"}}, "cli": {"ops": {"d"}}}
    assert cycles(graph) == [["compare", "ops", "suite"]]
    assert cycles({"ops": {"compare": {"a"}}, "compare": {}}) == []


def test_function_level_and_relative_imports_count(tmp_path: Path) -> None:
    package = tmp_path / "conformance"
    (package / "ops").mkdir(parents=True)
    (package / "fuzz").mkdir()
    (package / "ops" / "a.py").write_text("def f():\n    from conformance.fuzz import b\n")
    (package / "fuzz" / "b.py").write_text("from ..ops import a\n")
    graph = folder_graph(package)
    assert set(graph["ops"]) == {"fuzz"} and set(graph["fuzz"]) == {"ops"}
    assert cycles(graph) == [["fuzz", "ops"]]
