"""The plugin's features own their state (each under its own pytest.StashKey) and import no other feature: they talk
through the hooks of conformance/plugin/hooks.py (issue 32 #5)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

import conformance.plugin as plugin

PLUGIN_DIR = Path(plugin.__file__).parent
FEATURES = {name.rpartition(".")[2] for name in plugin.pytest_plugins}


def _imports(tree: ast.AST) -> list[tuple[ast.AST, str, bool]]:
    """(node, imported module, inside a function) for every import of a conformance.plugin module."""
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            names: list[str] = []
            if isinstance(child, ast.ImportFrom) and child.module:
                if child.module == "conformance.plugin":
                    names = [f"conformance.plugin.{a.name}" for a in child.names]
                else:
                    names = [child.module]
            elif isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            found.extend((child, n, nested) for n in names if n.startswith("conformance.plugin."))
            visit(child, nested)

    visit(tree, False)
    return found


def plugin_imports() -> list[tuple[str, str, bool, int]]:
    """(importing module, imported module, inside a function, line) across conformance/plugin/."""
    rows = []
    for path in sorted(PLUGIN_DIR.glob("*.py")):
        for node, name, nested in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            rows.append((path.stem, name.split(".")[2], nested, node.lineno))
    return rows


def test_the_features_are_the_registered_plugins():
    assert {"collect", "session", "isa_axis", "gate", "shards", "order", "batching", "ahead", "results", "progress",
            "protocol", "heap"} == FEATURES


def test_no_feature_imports_another():
    crossing = [f"{source}.py:{line} imports {target}" for source, target, _, line in plugin_imports()
                if source in FEATURES and target in FEATURES and source != target]
    assert crossing == [], "features talk through hooks.py, not by importing each other"


def test_no_plugin_module_is_imported_inside_a_function():
    nested = [f"{source}.py:{line} imports {target}" for source, target, inside, line in plugin_imports() if inside]
    assert nested == []


def test_the_checker_sees_a_function_level_import():
    # the test above can fail: the same walk finds an import hidden in a function
    code = "def f():\n    from conformance.plugin.gate import Gate\n"
    assert [(name, nested) for _, name, nested in _imports(ast.parse(code))] == [("conformance.plugin.gate", True)]


CASE = textwrap.dedent("""\
    op: Relu
    domain: ai.onnx
    versions: [14]
    cases:
      - id: small
        inputs:
          x: {shape: [2, 3], random: {seed: 1}}
""")

PROBE = textwrap.dedent("""\
    from conformance.plugin import gate, isa_axis, results, tree
    from conformance.plugin.batching import batcher_key
    from conformance.plugin.session import columns_key


    def pytest_collection_finish(session):
        config = session.config
        stash = config.stash
        owned = {"collect": tree.collection_key, "session": columns_key, "isa_axis": isa_axis.axis_key,
                 "gate": gate.gate_key, "results": results.results_key}
        print("OWNED", sorted(name for name, key in owned.items() if key in stash))
        print("BACKENDS", [c.name for c in stash[tree.collection_key].columns])
        print("COLUMNS", stash[columns_key].column_specs)
        print("GATE", type(stash[gate.gate_key].expectations).__name__)
        print("BATCHER", batcher_key in stash)
""")


def test_each_feature_keeps_its_state_under_its_own_key(pytester: pytest.Pytester):
    pytester.makefile(".yaml", relu=CASE)
    pytester.makeconftest(PROBE)
    result = pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases", ".",
                                           "--backend=onnxruntime", "--isolation=none", "--isa=native",
                                           f"--results={pytester.path / 'r.jsonl'}", "--collect-only", "-q", "-s")
    out = result.stdout.str()
    assert "OWNED ['collect', 'gate', 'isa_axis', 'results', 'session']" in out
    assert "BACKENDS ['onnxruntime']" in out
    assert "COLUMNS ['onnxruntime']" in out
    assert "GATE Expectations" in out
    assert "BATCHER False" in out  # made by the first item that runs: a collect-only run has none


def test_an_ordinary_test_run_makes_no_conformance_state(pytester: pytest.Pytester):
    pytester.makepyfile(test_x="def test_x():\n    pass\n")
    pytester.makeconftest(textwrap.dedent("""\
        from conformance.plugin import gate, isa_axis, results, tree


        def pytest_collection_finish(session):
            stash = session.config.stash
            keys = [tree.collection_key, gate.gate_key, isa_axis.axis_key, results.results_key]
            print("ANY", any(key in stash for key in keys))
    """))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s")
    assert "ANY False" in result.stdout.str()
    result.assert_outcomes(passed=1)
