"""Expectations files as hostile input: every problem is an ExpectationsError naming file and line (the plugin
turns it into a usage error, never an INTERNALERROR), entries that could never match say why, and `expectations
update` leaves comments and untouched entries alone."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conformance.cli.expectations import main as expectations_main
from conformance.expectations import ExpectationsError, load_file
from conformance.records import ResultRecord, split_item_id, write_records

GOOD_ID = "ai.onnx/AveragePool-22/ceil::onnxruntime[float32]"


def entries_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"entries:\n- id: {GOOD_ID}\n  reason: fine\n{body}", encoding="utf-8")
    return path


@pytest.mark.parametrize("body, words", [
    ("- glob: 5\n  reason: r\n", "glob must be a string"),
    ("- id: 123\n  reason: r\n", "id must be a string"),
    ("- id: " + GOOD_ID + "\n  reason: r\n  versions: '~1.2'\n", "bad version clause"),
    ("- id: " + GOOD_ID + "\n  reason: [a]\n", "reason must be a string"),
])
def test_bad_entries_name_file_and_line(tmp_path, body, words):
    path = entries_file(tmp_path, body)
    with pytest.raises(ExpectationsError) as info:
        load_file(path)
    assert f"{path}:4: entry 2" in str(info.value) and words in str(info.value)


@pytest.mark.parametrize("entry_id, words", [
    ("ai.onnx/AveragePool-22/ceil[float32]", "is not an item id"),
    ("ai.onnx/AveragePool-22/ceil::onnxruntime", "has no [params]"),
    ("ai.onnx/*::onnxruntime[float32]", "use glob:"),
    ("ai.onnx/AveragePool-22/ceil[float32]::onnxruntime", "uses the form <instance>[params]::backend"),
])
def test_entries_that_can_never_match_say_why(tmp_path, entry_id, words):
    (_, entry) = load_file(entries_file(tmp_path, f"- id: {entry_id}\n  reason: r\n"))
    assert words in entry.problem and entry.line == 4
    assert entry.problem == "" or not entry.matches_id(GOOD_ID)


def test_not_utf8(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_bytes(b"entries:\n- id: \xff\n")
    with pytest.raises(ExpectationsError, match="cannot read"):
        load_file(path)


def record(item: str, status: str) -> ResultRecord:
    case_id, backend = split_item_id(item)
    return ResultRecord(id=case_id, op="AveragePool", domain="ai.onnx", version=22, dtype="float32",
                        backend=backend, status=status)


TEXT = f"""\
# header comment: why these entries exist
entries:
# a comment about the first entry
- id: {GOOD_ID}
  reason: 'onnxruntime rounds the ceil window differently'   # inline comment
  status: fail
- id: ai.onnx/AveragePool-22/other::onnxruntime[float32]
  reason: fixed later
"""


def test_update_keeps_the_file_byte_for_byte_when_nothing_changed(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text(TEXT)
    write_records(tmp_path / "r.jsonl", [record(GOOD_ID, "fail")])
    assert expectations_main(["update", str(path), "--results", str(tmp_path / "r.jsonl")]) == 0
    assert path.read_text() == TEXT


def test_update_drops_only_the_fixed_entry_and_keeps_comments(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text(TEXT)
    new = "ai.onnx/AveragePool-22/new::onnxruntime[float32]"
    write_records(tmp_path / "r.jsonl", [record(GOOD_ID, "fail"), record(new, "error"),
                                         record("ai.onnx/AveragePool-22/other::onnxruntime[float32]", "pass")])
    assert expectations_main(["update", str(path), "--results", str(tmp_path / "r.jsonl")]) == 0
    text = path.read_text()
    assert text.startswith(TEXT.split("- id: ai.onnx/AveragePool-22/other")[0])  # comments untouched
    assert "fixed later" not in text and new in text
    assert [e.id for e in load_file(path)] == [GOOD_ID, new]


def test_update_on_unreadable_input_exits_2(tmp_path, capsys):
    path = entries_file(tmp_path, "- glob: 5\n  reason: r\n")
    (tmp_path / "r.jsonl").write_text("")
    assert expectations_main(["update", str(path), "--results", str(tmp_path / "r.jsonl")]) == 2
    assert "glob must be a string" in capsys.readouterr().err


def test_an_alias_bomb_in_an_expectations_file_is_refused_quickly(tmp_path):
    """Expectations are parsed like case files: the alias-expansion guard runs before anything is built."""
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"] + [
        f"{b}: &{b} [{', '.join(['*' + a] * 10)}]" for a, b in zip("abcdefgh", "bcdefghi")
    ]
    path = tmp_path / "bomb.yaml"
    path.write_text("defs:\n" + "".join(f"  {line}\n" for line in levels)
                    + f"entries:\n- id: {GOOD_ID}\n  reason: *i\n", encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(ExpectationsError, match=r"bomb\.yaml:1: YAML aliases expand to more than"):
        load_file(path)
    assert time.monotonic() - start < 5


def test_an_id_entry_beats_a_glob_whatever_their_order_and_globs_keep_file_order():
    """docs/ci-gate.md: the most specific entry wins (an id: takes its item from every glob:), then file order."""
    from conformance.expectations import Entry, Expectations

    item = GOOD_ID
    glob_first = Expectations([Entry("g", glob="ai.onnx/*::onnxruntime[*]"), Entry("i", id=item)])
    assert glob_first.find(item, "1.0").reason == "i"
    id_first = Expectations([Entry("i", id=item), Entry("g", glob="ai.onnx/*::onnxruntime[*]")])
    assert id_first.find(item, "1.0").reason == "i"
    two_globs = Expectations([Entry("g1", glob="ai.onnx/*::onnxruntime[*]"), Entry("g2", glob="*::onnxruntime[*]")])
    assert two_globs.find(item, "1.0").reason == "g1"
    versioned = Expectations([Entry("old", id=item, versions="<1.0"), Entry("g", glob="*::onnxruntime[*]"),
                              Entry("new", id=item, versions=">=1.0")])
    assert versioned.find(item, "1.2").reason == "new" and versioned.find(item, "0.9").reason == "old"
    assert versioned.find("ai.onnx/AveragePool-22/ceil::openvino[float32]", "1.2") is None
    versioned.entries.append(Entry("late", id="x::openvino[float32]"))  # the index follows the list
    assert versioned.find("x::openvino[float32]", "1").reason == "late"


@pytest.mark.parametrize("depth", [500, 1200])
def test_a_deeply_nested_expectations_file_names_its_line(tmp_path, depth):
    """Issue 23: a value nested hundreds deep was a RecursionError (an INTERNALERROR in pytest)."""
    path = entries_file(tmp_path, "- id: " + GOOD_ID + "\n  reason: " + "[" * depth + "]" * depth + "\n")
    with pytest.raises(ExpectationsError, match=r"exp.yaml:\d+: .*nest"):
        load_file(path)


def test_an_unstable_entry_lets_a_pass_be_a_pass_and_still_expects_its_failure(tmp_path):
    """unstable: true (docs/ci-gate.md): an item whose runtime answer depends on what ran before it (conformance
    verify's 'unstable'); a pass is recorded as pass, said so, not an xpass; a failure is its entry's xfail."""
    from dataclasses import replace

    from conformance.expectations import Expectations
    from conformance.records import ResultRecord

    path = tmp_path / "unstable.yaml"
    path.write_text(f"entries:\n- id: {GOOD_ID}\n  reason: garbage valid_outputs\n  unstable: true\n")
    entries = Expectations(load_file(path))
    record = ResultRecord(id="ai.onnx/AveragePool-22/ceil[float32]", op="AveragePool", domain="ai.onnx",
                          version=22, dtype="float32", backend="onnxruntime", status="pass")
    assert record.expectation_id == GOOD_ID
    passed = entries.apply(record)
    assert passed.status == "pass" and "unstable" in passed.reason
    failed = entries.apply(replace(record, status="fail", reason="y: 3 of 4 elements outside tolerance"))
    assert failed.status == "xfail"
    path.write_text(f"entries:\n- id: {GOOD_ID}\n  reason: r\n  unstable: sometimes\n")
    with pytest.raises(ExpectationsError, match="unstable is true or false"):
        load_file(path)
