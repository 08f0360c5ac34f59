"""The parts' records read while they run (cli/tailing.py): complete lines only, records only, each kept by its
text; and the merge takes a line's kept record instead of reading it again, the same records either way."""

from __future__ import annotations

import json
from dataclasses import replace

from report_records import rec

from conformance.cli.tailing import Tail
from conformance.records import write_records
from conformance.report import merge_files


def test_complete_record_lines_are_kept_by_their_text(tmp_path):
    a, b, c = (rec("AveragePool", 22, case, "float32", "onnxruntime", "pass") for case in "abc")
    part = tmp_path / "part-1-of-2.jsonl.part-run1-main"
    lines = [json.dumps({"meta": {"event": "start"}}), a.to_json(), "not json", b.to_json()]
    half = c.to_json()[:20]
    part.write_text("\n".join(lines) + "\n" + half)
    (tmp_path / "costs.json").write_text("{}")  # not a part file
    tail = Tail(tmp_path)
    tail.read_new()
    assert tail.parsed == {a.to_json(): a, b.to_json(): b}  # no meta, no garbage, not the half line
    with part.open("a") as more:
        more.write(c.to_json()[20:] + "\n")
    tail.read_new()
    assert list(tail.parsed) == [a.to_json(), b.to_json(), c.to_json()] and tail.parsed[c.to_json()] == c
    part.unlink()
    tail.read_new()  # a part file merged and removed meanwhile: nothing lost, nothing raised
    assert len(tail.parsed) == 3


def test_the_merge_takes_a_kept_record_for_its_line_and_reads_the_others(tmp_path):
    a, b = (rec("AveragePool", 22, case, "float32", "onnxruntime", "pass") for case in "ab")
    path = tmp_path / "results.jsonl"
    write_records(path, [a, b], meta={"run": "r"})
    plain = merge_files([path]).records
    kept = replace(a, reason="kept")  # a stand-in: proves the kept object is the one taken, not a reread
    taken = merge_files([path], parsed={a.to_json(): kept}).records
    assert plain == [a, b] and taken == [kept, b] and taken[0] is kept


def test_a_record_read_from_a_line_is_written_back_as_that_line(tmp_path):
    from conformance.records import parse_line
    from conformance.report import build_reports

    a, b = (rec("AveragePool", 22, case, "float32", "onnxruntime", "pass") for case in "ab")
    spelled = json.dumps(json.loads(a.to_json()), separators=(", ", ": "))  # the same record, other spacing
    source = tmp_path / "part-1-of-1.jsonl"
    source.write_text(spelled + "\n" + b.to_json() + "\n")
    summary = build_reports([source], tmp_path / "out", parsed={spelled: parse_line(spelled)})
    assert summary.records == [a, b]
    assert (tmp_path / "out" / "results.jsonl").read_text().splitlines()[-2:] == [spelled, b.to_json()]
