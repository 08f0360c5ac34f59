from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from report_records import rec

from conformance.records import write_records
from conformance.report import build_reports
from conformance.report.baseline import compare


def pair(old: str, new: str, case: str = "c") -> tuple:
    o = rec("MaxPool", 22, case, "float32", "openvino", old)
    return o, dataclasses.replace(o, status=new, reason=f"now {new}")


GOOD = ["pass", "xfail", "unsupported", "erratum"]
BAD = ["fail", "error", "crash", "timeout", "xpass"]


@pytest.mark.parametrize("old", GOOD)
@pytest.mark.parametrize("new", BAD)
def test_every_good_to_bad_move_is_a_regression(old: str, new: str) -> None:
    o, n = pair(old, new)
    diff = compare([n], [o])
    assert [(t.old, t.new, t.reason) for t in diff.regressions] == [(old, new, f"now {new}")]
    assert diff.exit_code == 1 and not diff.fixes and not diff.changes


@pytest.mark.parametrize("old", BAD)
@pytest.mark.parametrize("new", GOOD)
def test_every_bad_to_good_move_is_a_fix(old: str, new: str) -> None:
    o, n = pair(old, new)
    diff = compare([n], [o])
    assert [(t.old, t.new) for t in diff.fixes] == [(old, new)]
    assert diff.exit_code == 0 and not diff.regressions


@pytest.mark.parametrize(
    ("old", "new"),
    [("fail", "crash"), ("timeout", "error"), ("pass", "xfail"), ("unsupported", "pass"), ("erratum", "pass")],
)
def test_moves_within_a_side_are_changes(old: str, new: str) -> None:
    o, n = pair(old, new)
    diff = compare([n], [o])
    assert [(t.old, t.new) for t in diff.changes] == [(old, new)]
    assert diff.exit_code == 0


def test_unknown_status_counts_as_failing() -> None:
    o, n = pair("pass", "exploded")
    assert len(compare([n], [o]).regressions) == 1


def test_new_removed_and_unchanged() -> None:
    same_o, same_n = pair("pass", "pass", "same")
    gone = rec("MaxPool", 22, "gone", "float32", "openvino", "pass")
    born_bad = rec("MaxPool", 22, "born", "float32", "openvino", "fail", reason="new failure")
    born_ok = rec("MaxPool", 22, "born_ok", "float32", "openvino", "pass")
    diff = compare([same_n, born_bad, born_ok], [same_o, gone])
    assert diff.unchanged == 1
    assert [t.id for t in diff.removed] == [gone.id] and diff.removed[0].new is None
    assert [t.id for t in diff.new] == sorted([born_bad.id, born_ok.id])
    assert [t.id for t in diff.new_failing] == [born_bad.id]
    # A new failing key has nothing to regress from: visible, but not a gate failure.
    assert diff.regressions == [] and diff.exit_code == 0
    assert diff.counts() == {"regressions": 0, "fixes": 0, "changes": 0, "new": 2, "removed": 1, "unchanged": 1}


def test_build_reports_exit_codes_follow_regressions_and_failures(tmp_path: Path) -> None:
    o1, n1 = pair("pass", "fail", "a")
    o2, n2 = pair("fail", "pass", "b")
    write_records(tmp_path / "old.jsonl", [o1, o2])
    write_records(tmp_path / "new.jsonl", [n1, n2])
    summary = build_reports([tmp_path / "new.jsonl"], tmp_path / "out", baseline=[tmp_path / "old.jsonl"])
    assert summary.exit_code == 1 and summary.regression_code == 1
    assert [t.id for t in summary.regressions] == [n1.id]
    assert [t.id for t in summary.diff.fixes] == [n2.id]
    assert "REGRESSION" in summary.text()
    html = (tmp_path / "out" / "index.html").read_text()
    assert 'id="baseline"' in html and "1 regression(s)" in html
    # Same files as baseline: nothing moved.
    same = build_reports([tmp_path / "new.jsonl"], tmp_path / "out2", baseline=[tmp_path / "new.jsonl"])
    assert same.regression_code == 0 and same.diff.unchanged == 2
    assert same.exit_code == 1  # no regression, but a record still fails
    # No baseline: no diff; the failing record alone fails the report (no regression to speak of).
    none = build_reports([tmp_path / "new.jsonl"], tmp_path / "out3")
    assert none.diff is None and none.failing == 1 and none.exit_code == 1 and none.regression_code == 0
    green = build_reports([tmp_path / "old.jsonl"], tmp_path / "out4", baseline=[tmp_path / "old.jsonl"])
    assert green.failing == 1 and green.exit_code == 1  # o2 fails in both: known, still failing
    passing = [o1]
    write_records(tmp_path / "pass.jsonl", passing)
    assert build_reports([tmp_path / "pass.jsonl"], tmp_path / "out5").exit_code == 0
