from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from report_records import rec

from conformance.records import write_records
from conformance.report import build_reports
from conformance.report.baseline import COLUMN, compare


def pair(old: str, new: str, case: str = "c") -> tuple:
    o = rec("MaxPool", 22, case, "float32", "openvino", old)
    return o, dataclasses.replace(o, status=new, reason=f"now {new}")


GOOD = ["pass", "xfail", "unsupported", "erratum"]
BAD = ["fail", "error", "crash", "timeout", "xpass"]
#: a case the backend passes in both runs: a single record's move is judged as such, not as its column's loss
STEADY = rec("MaxPool", 22, "steady", "float32", "openvino", "pass")


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
    diff = compare([n, STEADY], [o, STEADY])
    assert [(t.old, t.new) for t in diff.fixes] == [(old, new)]
    assert diff.exit_code == 0 and not diff.regressions


@pytest.mark.parametrize(
    ("old", "new"),
    [("fail", "crash"), ("timeout", "error"), ("pass", "xfail"), ("unsupported", "pass"), ("erratum", "pass")],
)
def test_moves_within_a_side_are_changes(old: str, new: str) -> None:
    o, n = pair(old, new)
    diff = compare([n, STEADY], [o, STEADY])
    assert [(t.old, t.new) for t in diff.changes] == [(old, new)]
    assert diff.exit_code == 0


def test_unknown_status_counts_as_failing() -> None:
    o, n = pair("pass", "exploded")
    assert len(compare([n], [o]).regressions) == 1


def test_new_missing_and_unchanged() -> None:
    same_o, same_n = pair("pass", "pass", "same")
    gone = rec("MaxPool", 22, "gone", "float32", "openvino", "pass")
    gone_bad = rec("MaxPool", 22, "gone_bad", "float32", "openvino", "fail")
    born_bad = rec("MaxPool", 22, "born", "float32", "openvino", "fail", reason="new failure")
    born_ok = rec("MaxPool", 22, "born_ok", "float32", "openvino", "pass")
    diff = compare([same_n, born_bad, born_ok], [same_o, gone, gone_bad])
    assert diff.unchanged == 1
    # a passing key missing from the new results is a regression: a lost record must not pass the gate
    assert [(t.id, t.old, t.new) for t in diff.regressions] == [(gone.id, "pass", None)]
    assert diff.exit_code == 1
    assert [t.id for t in diff.removed] == [gone_bad.id] and diff.removed[0].new is None
    assert [t.id for t in diff.new] == sorted([born_bad.id, born_ok.id])
    assert [t.id for t in diff.new_failing] == [born_bad.id]
    # A new failing key has nothing to regress from: visible, but not a gate failure.
    assert diff.counts() == {"regressions": 1, "changed failures": 0, "fixes": 0, "changes": 0, "new": 2,
                             "removed": 1, "not run": 0, "other level": 0, "unchanged": 1}


def test_a_partial_run_lists_missing_keys_as_not_run() -> None:
    gone = rec("MaxPool", 22, "gone", "float32", "openvino", "pass")
    diff = compare([], [gone], partial=True)
    assert diff.regressions == [] and [t.id for t in diff.not_run] == [gone.id]


def test_an_empty_or_partial_results_file_fails_against_a_baseline(tmp_path: Path) -> None:
    o1, n1 = pair("pass", "pass", "a")
    o2 = rec("MaxPool", 22, "b", "float32", "openvino", "pass")
    write_records(tmp_path / "old.jsonl", [o1, o2])
    (tmp_path / "empty.jsonl").write_text("")
    write_records(tmp_path / "half.jsonl", [n1])
    for new in ("empty.jsonl", "half.jsonl"):
        summary = build_reports([tmp_path / new], tmp_path / "out", baseline=[tmp_path / "old.jsonl"])
        assert summary.exit_code == 1 and o2.id in [t.id for t in summary.regressions]
    # a run that says it selected a subset (-k) is not charged for what it did not select
    write_records(tmp_path / "k.jsonl", [n1], meta={"partial": "-k a"})
    summary = build_reports([tmp_path / "k.jsonl"], tmp_path / "out", baseline=[tmp_path / "old.jsonl"])
    assert summary.exit_code == 0 and [t.id for t in summary.diff.not_run] == [o2.id]
    assert "partial run: " in summary.text()


def test_shards_that_add_up_are_a_whole_run(tmp_path: Path) -> None:
    o1, n1 = pair("pass", "pass", "a")
    o2, n2 = pair("pass", "pass", "b")
    write_records(tmp_path / "old.jsonl", [o1, o2])
    write_records(tmp_path / "s1.jsonl", [n1], meta={"partial": "--shard=1/2", "shard": "1/2"})
    write_records(tmp_path / "s2.jsonl", [], meta={"partial": "--shard=2/2", "shard": "2/2"})
    both = build_reports([tmp_path / "s1.jsonl", tmp_path / "s2.jsonl"], tmp_path / "o", [tmp_path / "old.jsonl"])
    assert both.meta == {} and [t.id for t in both.regressions] == [o2.id]  # shard 2 lost b: a regression
    one = build_reports([tmp_path / "s1.jsonl"], tmp_path / "o", [tmp_path / "old.jsonl"])
    assert one.exit_code == 0 and "shards 1/2 only" in one.meta["partial"]


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


@pytest.mark.parametrize("new", ["unsupported", "error", None])
def test_a_lost_pass_is_a_regression_listed_as_lost_coverage(new) -> None:
    """Issue 23 #2: pass -> unsupported was a mere change, so a column that stopped running cases passed."""
    o, n = pair("pass", new or "pass")
    diff = compare([n] if new else [], [o])
    assert [(t.old, t.new) for t in diff.regressions] == [("pass", new)] and diff.exit_code == 1
    assert diff.regressions[0].lost_coverage
    assert diff.regressions[0].reason == (f"now {new}" if new else "missing from the new results")


def test_lost_coverage_is_printed_as_such_with_the_backends_reason(tmp_path: Path) -> None:
    o, n = pair("pass", "unsupported")
    keep = rec("MaxPool", 22, "other", "float32", "openvino", "pass")
    write_records(tmp_path / "old.jsonl", [o, keep])
    write_records(tmp_path / "new.jsonl", [n, keep])
    summary = build_reports([tmp_path / "new.jsonl"], tmp_path / "out", baseline=[tmp_path / "old.jsonl"])
    assert summary.exit_code == 1 and summary.regression_code == 1
    assert f"LOST COVERAGE {o.id}::openvino: pass -> unsupported  now unsupported" in summary.text()
    html = (tmp_path / "out" / "index.html").read_text()
    assert "<b>Lost coverage (passed in the baseline, no longer run)</b> (1)" in html


def test_a_column_that_ran_nothing_fails_though_the_baseline_only_knew_failures() -> None:
    """Every baseline record of the column was an xfail (no pass to lose): the whole column going unsupported is
    still a regression of its own."""
    old = [rec("MaxPool", 22, f"c{i}", "float32", "vendor", "xfail") for i in range(3)]
    new = [dataclasses.replace(r, status="unsupported", reason="supports() said no") for r in old]
    diff = compare(new, old)
    assert [(t.id, t.backend, t.new) for t in diff.regressions] == [("(every case)", "vendor", "ran nothing")]
    assert diff.regressions[0].lost_coverage and "ran 3 case(s)" in diff.regressions[0].reason
    assert compare(new, old, partial=True).regressions == []  # a -k run may select only what it skips
    assert compare(new, new).regressions == []  # never ran it: nothing lost


def test_an_incomplete_run_fails_without_a_baseline(tmp_path: Path) -> None:
    """Issue 23 #2: a killed run's records, all green, reported without --baseline, exited 0."""
    write_records(tmp_path / "r.jsonl", [rec("MaxPool", 22, "a", "float32", "openvino", "pass")],
                  meta={"interrupted": "killed by signal 9"})
    summary = build_reports([tmp_path / "r.jsonl"], tmp_path / "out")
    assert summary.failing == 0 and summary.incomplete
    assert summary.exit_code == 1 and summary.regression_code == 1  # --allow-failures too


def test_an_unknown_status_is_failing_in_the_report_summary(tmp_path: Path) -> None:
    """Issue 23 #3: "status": "weird" gave "0 failing", exit 0 without a baseline."""
    write_records(tmp_path / "r.jsonl", [rec("MaxPool", 22, "a", "float32", "openvino", "weird")])
    summary = build_reports([tmp_path / "r.jsonl"], tmp_path / "out")
    assert summary.failing == 1 and summary.exit_code == 1 and "1 failing" in summary.text()
    html = (tmp_path / "out" / "index.html").read_text()
    assert '<div class="big bad"><b>1</b><span>failing</span>' in html


def test_a_record_is_compared_only_at_its_own_isa_level() -> None:
    """Like with like (docs/isa.md): a baseline from another CPU class is not a source of regressions."""
    old, new = pair("pass", "error")
    at = lambda r, level: dataclasses.replace(r, isa=level)  # noqa: E731
    same = compare([at(new, "avx512_core_bf16")], [at(old, "avx512_core_bf16")])
    assert [(t.id, t.isa) for t in same.regressions] == [(old.id, "avx512_core_bf16")]
    # the backend still runs cases here (STEADY): only the record's own move is in question
    other = compare([at(new, "avx512_core_bf16"), at(STEADY, "avx512_core_bf16")],
                    [at(old, "avx2"), at(STEADY, "avx2")])
    assert other.regressions == [] and other.exit_code == 0
    assert [(t.id, t.isa) for t in other.other_level] == [(old.id, "avx2"), (STEADY.id, "avx2")]
    assert [(t.id, t.new) for t in other.new] == [(old.id, "error"), (STEADY.id, "pass")]
    # an ISA column is compared with the same column of the baseline
    axis = compare([dataclasses.replace(at(new, "avx2"), backend="openvino@avx2"), at(old, "avx512_core_bf16")],
                   [dataclasses.replace(at(old, "avx2"), backend="openvino@avx2"), at(old, "avx512_core_bf16")])
    assert [(t.backend, t.old, t.new) for t in axis.regressions] == [("openvino@avx2", "pass", "error")]


def test_a_baseline_without_levels_is_compared_with_the_level_that_ran() -> None:
    old, new = pair("pass", "fail")  # the baseline is an older run: no isa in its records
    diff = compare([dataclasses.replace(new, isa="avx512_core_bf16")], [old])
    assert [(t.old, t.new) for t in diff.regressions] == [("pass", "fail")] and not diff.other_level


def test_a_backend_gone_from_every_level_is_still_missing() -> None:
    old, _ = pair("pass", "pass")
    other, _ = pair("pass", "pass", case="d")
    diff = compare([dataclasses.replace(other, isa="avx2", backend="onnxruntime")],
                   [dataclasses.replace(old, isa="avx2")])
    assert [(t.backend, t.new) for t in diff.regressions if t.id == old.id] == [("openvino", None)]


def vendor(case: str, status: str, isa: str, **kw) -> object:
    return dataclasses.replace(rec("AveragePool", 22, case, "float32", "vendor", status, **kw), isa=isa)


CASES = [f"c{i}" for i in range(7)]


def test_a_plugin_whose_library_fails_on_another_cpu_class_loses_its_coverage(tmp_path: Path) -> None:
    """The probe: 7 passes at avx512_core_bf16, today the library does not load on an avx2 runner (supports() says
    no): "7 new, 7 other level", exit 0 -- a runner of another CPU class passed the gate running nothing."""
    old = [vendor(c, "pass", "avx512_core_bf16") for c in CASES]
    new = [vendor(c, "unsupported", "avx2", reason="libvendor.so: cannot open shared object file") for c in CASES]
    diff = compare(new, old)
    # the backend ran 7 cases in the baseline and none here, at whatever level: one column-wide regression
    assert [(t.id, t.old, t.new, t.isa, t.baseline_isa) for t in diff.regressions] == [
        (COLUMN, "ran 7", "ran nothing", "avx2", "avx512_core_bf16")]
    assert all(t.lost_coverage for t in diff.regressions) and diff.exit_code == 1
    # each item is named with both levels and the backend's reason (shown, the column fails the gate)
    assert [(t.id, t.baseline_isa) for t in diff.other_level] == [(r.id, "avx512_core_bf16") for r in old]
    assert "passed at ISA level avx512_core_bf16" in diff.other_level[0].reason
    assert "libvendor.so" in diff.other_level[0].reason and not diff.new
    write_records(tmp_path / "old.jsonl", old)
    write_records(tmp_path / "new.jsonl", new)
    summary = build_reports([tmp_path / "new.jsonl"], tmp_path / "out", baseline=[tmp_path / "old.jsonl"])
    assert summary.regression_code == 1 and summary.text().count("LOST COVERAGE") == 1
    # with no records at all (the plugin emitted none) the passes are missing: regressions as before
    assert len(compare([rec("MaxPool", 22, "x", "float32", "onnxruntime", "pass")], old).regressions) == 7


@pytest.mark.parametrize("before", ["xfail", "fail", "crash"])
def test_a_backend_that_ran_cases_at_one_level_and_none_at_another_is_a_lost_column(before: str) -> None:
    """No item passed in the baseline (nothing to lose one by one), yet the backend ran cases there: running none
    today, at whatever level, is a regression of its own; known failures turning unsupported are not fixes."""
    old = [vendor(c, before, "avx512_core_bf16") for c in CASES]
    new = [vendor(c, "unsupported", "avx2", reason="supports() said no") for c in CASES]
    diff = compare(new, old)
    (column,) = [t for t in diff.regressions if t.lost_coverage]
    assert (column.id, column.backend, column.isa, column.baseline_isa) == (
        "(every case)", "vendor", "avx2", "avx512_core_bf16")
    assert "ran 7 case(s) on vendor at ISA level avx512_core_bf16" in column.reason and diff.exit_code == 1
    # no record of the backend at all: an xfail is missing (a regression already), a failure only "removed"
    gone = compare([rec("MaxPool", 22, "x", "float32", "onnxruntime", "pass")], old)
    assert gone.exit_code == 1 and {t.backend for t in gone.regressions} == {"vendor"}
    if before != "xfail":
        assert [(t.id, t.backend) for t in gone.regressions] == [("(every case)", "vendor")]
        assert "has no record of it" in gone.regressions[0].reason
    assert compare(new, old, partial=True).regressions == []  # a -k run may select only what it skips
    assert compare(new, new).regressions == []  # ran nothing before either


def test_the_same_level_column_counts_known_failures_as_run() -> None:
    old = [vendor(c, "fail", "avx2") for c in CASES]
    new = [vendor(c, "unsupported", "avx2") for c in CASES]
    diff = compare(new, old)
    assert [(t.id, t.isa) for t in diff.regressions] == [("(every case)", "avx2")]
    assert len(diff.fixes) == 7  # each record on its own is still a fix; the column's loss is what fails


def test_an_item_passed_at_one_level_and_only_unsupported_at_another_is_named_not_failed() -> None:
    """The backend still runs other cases at the new level: the one it runs no more there is shown with both
    levels, but another CPU class may lack what it needs (a fleet of runner classes must not go red on the draw)."""
    old = [vendor("a", "pass", "avx512_core"), vendor("b", "pass", "avx512_core")]
    new = [vendor("a", "pass", "avx2"), vendor("b", "unsupported", "avx2", reason="no kernel")]
    diff = compare(new, old)
    assert diff.regressions == []
    crossed = [t for t in diff.other_level if t.baseline_isa]
    assert [(t.id, t.old, t.new, t.baseline_isa) for t in crossed] == [
        (old[1].id, "pass", "unsupported", "avx512_core")]
    assert "passed at ISA level avx512_core" in crossed[0].reason and "no kernel" in crossed[0].reason
    assert sorted(t.id for t in diff.other_level) == sorted([old[0].id, old[1].id])
    assert [t.id for t in diff.new] == [new[0].id]
    # a runnable outcome at the other level is not compared: pass -> fail across CPU classes is not a regression
    fails = compare([new[0], vendor("b", "fail", "avx2")], old)
    assert fails.regressions == [] and [t.id for t in fails.new_failing] == [old[1].id]


def test_a_level_the_baseline_also_had_is_compared_there_like_with_like() -> None:
    """A baseline of two CPU classes: an item unsupported at avx2 in it too is explained by the level, not lost."""
    old = [vendor("b", "pass", "avx512_core_bf16"), vendor("b", "unsupported", "avx2"),
           vendor("a", "pass", "avx512_core_bf16"), vendor("a", "pass", "avx2")]
    new = [vendor("b", "unsupported", "avx2"), vendor("a", "pass", "avx2")]
    diff = compare(new, old)
    assert diff.regressions == [] and diff.unchanged == 2 and len(diff.other_level) == 2


def test_an_item_missing_at_every_level_is_missing_though_its_backend_ran_elsewhere() -> None:
    """"other level" means the item ran here at another level; an item this run has at no level at all is
    missing, as at the same level."""
    old = [vendor("a", "pass", "avx512_core"), vendor("gone", "pass", "avx512_core")]
    new = [vendor("a", "pass", "avx2")]
    diff = compare(new, old)
    assert [(t.id, t.new) for t in diff.regressions] == [(old[1].id, None)]
    assert [t.id for t in compare(new, old, partial=True).not_run] == [old[1].id]


def test_a_changed_failure_is_named_in_the_summary_whether_the_baseline_was_xfail_or_red(tmp_path: Path) -> None:
    """Issue 35: xfail -> fail of an entry's pinned signature is labelled a changed failure (compared by outcome),
    and one against an already red baseline is listed by name, not only counted."""
    worst = [{"index": [0], "expected": 1.0, "actual": 1.5, "abs_err": 0.5, "allowed": 0.001}]
    red = rec("MaxPool", 12, "c", "float32", "acme", "fail", reason="y: values", worst=worst,
              outputs=[{"name": "y", "ok": False, "reason": "y: 1 of 1 elements outside tolerance", "worst": worst}])
    known = dataclasses.replace(red, status="xfail", outcome="fail", expectation="e",
                                reason="expected failure: e\ny: values")
    broken = dataclasses.replace(red, outcome="fail", expectation="e", reason="changed failure: expected 'y: values "
                                 "1e2', got indices: indices (new): e\ny: values; indices: differ",
                                 outputs=red.outputs + [{"name": "indices", "ok": False, "error_model": "index",
                                                         "reason": "indices: 1 of 1 indices differ"}])
    write_records(tmp_path / "red.jsonl", [red])
    write_records(tmp_path / "known.jsonl", [known])
    write_records(tmp_path / "new.jsonl", [broken])
    gated = build_reports([tmp_path / "new.jsonl"], tmp_path / "a", baseline=[tmp_path / "known.jsonl"])
    assert gated.regression_code == 1 and gated.diff.changed_failures == gated.diff.regressions
    assert f"CHANGED FAILURE {red.id}::acme: xfail -> fail  changed failure: expected" in gated.text()
    was_red = build_reports([tmp_path / "new.jsonl"], tmp_path / "b", baseline=[tmp_path / "red.jsonl"])
    assert was_red.regression_code == 0 and len(was_red.diff.changed_failures) == 1
    assert (f"CHANGED FAILURE (already failing in the baseline) {red.id}::acme: fail -> fail  changed failure: was "
            "'y: values 1e2', now indices: indices (new)") in was_red.text()
    # the same failure again is unchanged, and nothing is listed
    same = build_reports([tmp_path / "red.jsonl"], tmp_path / "c", baseline=[tmp_path / "red.jsonl"])
    assert "CHANGED FAILURE" not in same.text() and same.diff.unchanged == 1
