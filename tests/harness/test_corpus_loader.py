"""The corpus loader (conformance/suite/corpus.py): the one walk from folders to case instances, and the only
module that reads a case file's cases for the plugin, the CLI, coverage and the benchmarks."""

from __future__ import annotations

import ast
from pathlib import Path

from conformance.suite import corpus

ROOT = Path(__file__).resolve().parents[2]

CASE = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: {name}
    attributes: {{kernel_shape: [2]}}
    inputs:
      x: {{shape: [1, 1, 4], dtype: float32, data: [1, 2, 3, 4]}}
"""


def test_a_folder_gives_its_yaml_and_yml_files_sorted_and_a_file_itself(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    for name in ("b/z.yaml", "a.yml", "b/a.yaml", "notes.txt", "b/c.json"):
        (tmp_path / name).write_text(CASE.format(name="x"))
    assert corpus.case_files([tmp_path]) == [tmp_path / "a.yml", tmp_path / "b/a.yaml", tmp_path / "b/z.yaml"]
    assert corpus.case_files([tmp_path / "notes.txt"]) == [tmp_path / "notes.txt"]  # named: loaded as given


def test_instances_in_file_order_and_errors_reported_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "1.yaml").write_text(CASE.format(name="first"))
    (tmp_path / "2.yaml").write_text("op: [unclosed\n")
    (tmp_path / "3.yaml").write_text(CASE.format(name="third") + "  - id: broken\n    attributes: 7\n")
    errors: list[str] = []
    found = [(path.name, instance.id) for path, instance in corpus.instances([tmp_path], on_error=errors.append)]
    assert found == [("1.yaml", "ai.onnx/AveragePool-22/first[float32]"),
                     ("3.yaml", "ai.onnx/AveragePool-22/third[float32]")]
    assert len(errors) == 2 and "2.yaml" in errors[0] and "broken" in errors[1]


def test_imports_can_be_left_out(tmp_path: Path) -> None:
    path = tmp_path / "imports.yaml"
    path.write_text(CASE.format(name="own") + 'import: {from: no-such-source, pattern: "x"}\n')
    errors: list[str] = []
    assert [i.id for _, i in corpus.instances([path], on_error=errors.append, imports=False)] == [
        "ai.onnx/AveragePool-22/own[float32]"]
    assert errors == []
    assert list(corpus.instances([path], on_error=errors.append)) == []  # the unknown source: an error
    assert len(errors) == 1 and "no-such-source" in errors[0]


def test_no_other_module_reads_a_case_files_cases() -> None:
    # the corpus was loaded in four places that disagreed (suffixes, imports, errors): a case file's cases
    # (its literal cases and its import: sources) come from corpus.file_cases alone
    readers = []
    for path in sorted([*(ROOT / "conformance").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]):
        if path.name in ("corpus.py", "sources.py"):  # the loader, and where imported_cases is defined
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and any(a.name == "imported_cases" for a in node.names):
                readers.append(str(path.relative_to(ROOT)))
    assert readers == []
