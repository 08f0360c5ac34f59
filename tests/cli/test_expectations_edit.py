"""`conformance expectations update` edits a file in its own layout and never writes invalid YAML: new entries
go after the last entry, indented like the file's (the docs indent them under `entries:`), other keys and comments
stay, and what would be written is read back before the file is replaced (conformance/cli/expectations.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conformance.cli import expectations
from conformance.expectations import Entry, load_file
from conformance.records import ResultRecord, split_item_id, write_records

OLD = "ai.onnx/AveragePool-22/ceil::onnxruntime[float32]"
FIXED = "ai.onnx/AveragePool-22/fixed::onnxruntime[float32]"
NEW = "ai.onnx/AveragePool-22/new::onnxruntime[float32]"

DOCS_STYLE = f"""\
# the layout of docs/ci-gate.md
entries:
  - id: "{OLD}"   # exact item id
    reason: "divides the ceil overhang by the full kernel size"
    status: fail
  - id: "{FIXED}"
    reason: |
      fixed in
      the next release
"""


def results(tmp_path: Path, *items: tuple[str, str]) -> Path:
    path = tmp_path / "r.jsonl"
    records = []
    for item, status in items:
        case_id, backend = split_item_id(item)
        records.append(ResultRecord(id=case_id, op="AveragePool", domain="ai.onnx", version=22, dtype="float32",
                                    backend=backend, status=status))
    write_records(path, records)
    return path


def update(path: Path, text: str, tmp_path: Path, *items: tuple[str, str]) -> int:
    path.write_text(text)
    return expectations.main(["update", str(path), "--results", str(results(tmp_path, *items))])


@pytest.mark.parametrize("fixed_status", ["fail", "pass"], ids=["kept", "dropped"])
def test_the_docs_indented_layout_gets_entries_indented_alike(tmp_path: Path, fixed_status):
    path = tmp_path / "exp.yaml"
    assert update(path, DOCS_STYLE, tmp_path, (OLD, "fail"), (FIXED, fixed_status), (NEW, "error")) == 0
    text = path.read_text()
    assert yaml.safe_load(text)  # valid YAML (the new entry was written at column 0 under indented ones)
    # the reason is the record's (here it has none: its status says what it is) after the TODO a person replaces
    assert f"\n  - id: {NEW}\n    reason: 'TODO: say what diverges and link the issue. error (no reason recorded)'\n" \
        in text
    assert [e.id for e in load_file(path)] == [OLD, *([FIXED] if fixed_status == "fail" else []), NEW]
    assert text.startswith(DOCS_STYLE.split("  - id: \"" + FIXED)[0])  # comments and the first entry untouched


def test_keys_after_the_list_and_trailing_comments_stay(tmp_path: Path):
    path = tmp_path / "exp.yaml"
    text = DOCS_STYLE + "# closing remarks\nx-notes: kept as they are\n"
    assert update(path, text, tmp_path, (OLD, "fail"), (FIXED, "pass"), (NEW, "error")) == 0
    written = path.read_text()
    assert yaml.safe_load(written)["x-notes"] == "kept as they are" and written.endswith(
        "# closing remarks\nx-notes: kept as they are\n")
    assert [e.id for e in load_file(path)] == [OLD, NEW]


@pytest.mark.parametrize("text", ["entries: []\n", "# nothing yet\nentries: []  # none\nx-other: 1\n", "x-other: 1\n"])
def test_a_file_without_entries_gets_a_valid_list(tmp_path: Path, text):
    path = tmp_path / "exp.yaml"
    assert update(path, text, tmp_path, (NEW, "error")) == 0
    assert [e.id for e in load_file(path)] == [NEW]


def test_a_layout_that_would_not_read_back_is_refused_and_the_file_left_alone(tmp_path: Path, capsys, monkeypatch):
    path = tmp_path / "exp.yaml"
    path.write_text(DOCS_STYLE)
    before = load_file(path)
    # an editor that lost track of the layout (the bug this guards against: new entries at column 0)
    monkeypatch.setattr(expectations, "_sequence_layout", lambda lines, entries: (0, len(lines)))
    assert update(path, DOCS_STYLE, tmp_path, (OLD, "fail"), (FIXED, "fail"), (NEW, "error")) == 2
    err = capsys.readouterr().err
    assert f"{path}: left unchanged: it would not be valid" in err and f"- id: {NEW}" in err  # nothing lost
    assert path.read_text() == DOCS_STYLE and [e.key for e in load_file(path)] == [e.key for e in before]
    assert not list(tmp_path.glob(".exp.yaml.*"))  # no scratch file left behind


def test_reading_back_compares_every_field(tmp_path: Path):
    path = tmp_path / "exp.yaml"
    path.write_text(DOCS_STYLE)
    before = load_file(path)
    with pytest.raises(expectations.ExpectationsError, match="would not read back as the same entries"):
        expectations._replace_checked(path, DOCS_STYLE, DOCS_STYLE, [*before, Entry(reason="r", id=NEW)])
    assert path.read_text() == DOCS_STYLE
