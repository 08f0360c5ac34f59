"""``skip: CAUSE``: an expectations entry whose items are not run on their backend (they hang, or need more than a
runner has): each recorded ``skipped`` with the cause and the entry's FILE:LINE, never a pass, counted in the
summaries; ``conformance verify --skipped`` runs exactly them and says what each does now (issue 48, item 4)."""

from __future__ import annotations

import json
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from off_by_bounds import ITEM, OffBy, instance

from conformance.cli import verify
from conformance.cli.expectations import update
from conformance.expectations import Expectations, ExpectationsError, load_file, write_file
from conformance.pipeline.runner import result
from conformance.records import FAILING, STATUSES, ResultRecord, read_records, split_item_id, write_records
from conformance.report import build_reports
from conformance.report.baseline import compare
from conformance.report.merge import merge_records

HERE = Path(__file__).resolve().parent


class Refusing(OffBy):
    """Raises when asked to run: a skipped item must never reach ``run``."""

    def run(self, case, inputs):  # noqa: ANN001, ANN201
        raise RuntimeError("ran an item its entry skips")


def book(tmp_path: Path, extra: str = "    skip: hangs\n") -> Expectations:
    path = tmp_path / "acme.yaml"
    path.write_text(f"entries:\n  - id: '{ITEM}'\n    reason: ACME-9 spins forever\n{extra}", encoding="utf-8")
    return Expectations(load_file(path))


def test_a_skipped_item_is_not_run_and_says_why_and_where(tmp_path):
    made = result(instance(), Refusing(), book(tmp_path))
    assert made.status == "skipped" and made.outcome == "skipped"
    assert made.reason.startswith("skipped: hangs (acme.yaml:2: ACME-9 spins forever)")
    assert made.expectation == "ACME-9 spins forever [acme.yaml:2, skip: hangs]"
    assert made.backend_version == "1.0"  # the column's fields, as every record of it has
    assert "skipped" in STATUSES and "skipped" not in FAILING


def test_without_the_entry_or_when_asked_to_the_item_runs(tmp_path):
    assert result(instance(), Refusing(), Expectations([])).status == "error"
    asked = book(tmp_path)
    asked.honour_skips = False  # --skipped-only: the items it keeps run
    ran = result(instance(), OffBy(0.5), asked)
    assert ran.status == "pass" and "skip: hangs" in ran.expectation  # no xpass: the entry expects no failure


@pytest.mark.parametrize(("text", "message"), [
    ("    skip: true\n", "skip is the cause in a few words"),
    ("    skip: ''\n", "skip is the cause in a few words"),
    ("    skip: '" + "x" * 81 + "'\n", "at most 80 characters"),
    ("    skip: [hangs]\n", "skip is the cause in a few words"),
    ("    skip: hangs\n    status: timeout\n", "takes no status"),
    ("    skip: hangs\n    tolerance: {scale: 2}\n", "takes no tolerance"),
])
def test_a_malformed_skip_names_file_line_and_entry(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(f"entries:\n  - id: '{ITEM}'\n    reason: r\n{text}", encoding="utf-8")
    with pytest.raises(ExpectationsError, match=f"{path}:2: entry 1: .*{message}"):
        load_file(path)


def test_a_skip_without_a_reason_is_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(f"entries:\n  - id: '{ITEM}'\n    skip: hangs\n", encoding="utf-8")
    with pytest.raises(ExpectationsError, match=f"{path}:2: entry 1: every entry needs a reason"):
        load_file(path)


def test_to_yaml_round_trip(tmp_path):
    entries = book(tmp_path, "    skip: needs 40 GiB\n").entries
    assert entries[0].to_yaml() == {"id": ITEM, "reason": "ACME-9 spins forever", "skip": "needs 40 GiB"}
    again = tmp_path / "again.yaml"
    write_file(again, entries)
    assert [e.to_yaml() for e in load_file(again)] == [e.to_yaml() for e in entries]


def record(status: str, name: str = "mixed_signs") -> ResultRecord:
    case_id, backend = split_item_id(ITEM.replace("mixed_signs", name))
    return ResultRecord(id=case_id, op="AveragePool", domain="ai.onnx", version=22, dtype="float32", backend=backend,
                        backend_version="1.0", status=status, outcome=status)


def test_a_skip_entry_whose_items_are_skipped_is_neither_stale_nor_dropped(tmp_path):
    expectations = book(tmp_path)
    skipped = record("skipped")
    assert expectations.stale([skipped.expectation_id], [skipped]) == []
    kept, added, dropped = update(expectations.entries, [skipped], None)
    assert kept == expectations.entries and not added and not dropped


def test_a_skipped_record_is_never_a_pass_in_the_reports(tmp_path):
    path = tmp_path / "r.jsonl"
    write_records(path, [record("skipped"), record("pass", "plain")])
    summary = build_reports([path], tmp_path / "out")
    assert summary.failing == 0 and summary.exit_code == 0 and summary.counts == {"skipped": 1, "pass": 1}
    assert ("skipped: 1 item(s) not run by expectations entries (skip:): conformance verify --skipped runs them"
            in summary.text())
    assert '<skipped type="skipped" message="' in (tmp_path / "out" / "junit.xml").read_text()
    page = (tmp_path / "out" / "index.html").read_text()
    assert '<span class="chip s-skipped">skipped 1</span>' in page and ".s-skipped{background:" in page
    # a passing item that a new entry skips is coverage lost: a regression against the baseline
    (lost,) = compare([record("skipped")], [record("pass")]).regressions
    assert lost.lost_coverage and (lost.old, lost.new) == ("pass", "skipped")
    # two results of one item: a failure is never hidden by a skip, a skip never by a pass
    assert merge_records([("a", [record("fail")]), ("b", [record("skipped")])]).records[0].status == "fail"
    assert merge_records([("a", [record("pass")]), ("b", [record("skipped")])]).records[0].status == "skipped"


def test_the_ci_summary_does_not_list_a_skipped_item_as_failing(tmp_path):
    from conformance.ci.summary import render

    path = tmp_path / "r.jsonl"
    write_records(path, [record("skipped")])
    assert "1 records, 0 failing" in render([path])


CASES = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
""" + "".join(f"""\
  - id: {name}
    attributes: {{kernel_shape: [2, 2]}}
    inputs:
      x: {{shape: [1, 1, 3, 3], dtype: float32, arange: {{start: {n}}}}}
""" for n, name in enumerate(("hangs", "fixed", "plain", "other")))


def entries(folder: Path, backend: str) -> Path:
    path = folder / "lists" / f"{backend}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(textwrap.dedent(f"""\
        entries:
          - id: "ai.onnx/AveragePool-22/hangs::{backend}[float32]"
            reason: "ACME-9: spins forever on a 2x2 window"
            skip: hangs
          - id: "ai.onnx/AveragePool-22/fixed::{backend}[float32]"
            reason: "ACME-10: needed 40 GiB before 1.1"
            skip: needs 40 GiB
        """), encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "three.yaml").write_text(CASES, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(HERE))  # the workers import the fakes by module name
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_run_skips_the_items_and_never_batches_them(corpus, pytester, monkeypatch):
    batched = corpus / "batched.txt"
    monkeypatch.setenv("BATCHED", str(batched))
    results = corpus / "r.jsonl"
    run = pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p", "no:randomly",
                                        f"--cases={corpus / 'cases'}", "--backend=skip_fakes:Batching",
                                        "--isolation=none", "--no-reference", f"--results={results}",
                                        f"--expectations={entries(corpus, 'fake-batching')}", "-rs")
    statuses = {r.id.split("/")[-1]: r.status for r in read_records(results)}
    assert statuses == {"hangs[float32]": "skipped", "fixed[float32]": "skipped", "plain[float32]": "pass",
                        "other[float32]": "pass"}, run.stdout.str()
    assert run.ret == 0
    # the summary's table has a skipped column; pytest reports each at its case's line, with the entry's
    run.stdout.fnmatch_lines(["backend*pass*skipped", "fake-batching*2*2", "SKIPPED*three.yaml:5: skipped: hangs "
                              "(fake-batching.yaml:2: ACME-9*"])
    # the two items that run make one batch; the skipped ones are never offered to one
    assert batched.read_text().split() == [f"ai.onnx/AveragePool-22/{n}[float32]" for n in ("plain", "other")]


def test_verify_skipped_runs_exactly_the_skipped_items_and_says_what_each_does(corpus, capsys):
    code = verify.main(["--no-default-cases", f"--cases={corpus / 'cases'}", "-n", "0", "-o", str(corpus / "out"),
                        "--backend=skip_fakes:Hanging", f"--expectations={entries(corpus, 'fake-hangs')}",
                        "--case-timeout=3", "--skipped"])
    out = capsys.readouterr().out
    assert code == 1, out  # an item that now passes no longer needs its skip
    assert "2 skipped item(s), each run alone (case timeout 3 s)" in out
    report = json.loads((corpus / "out" / "skipped.json").read_text())
    found = {item["id"].split("/")[-1]: (item["status"], item["verdict"]) for item in report["items"]}
    assert found == {"hangs::fake-hangs[float32]": ("timeout", "still hangs"),
                     "fixed::fake-hangs[float32]": ("pass", "now passes")}
    assert "no result within 3 s (--case-timeout)" in out and "[ACME-9: spins forever on a 2x2 window " \
        "[fake-hangs.yaml:2, skip: hangs]]" in out


def test_verify_skipped_with_nothing_skipped_is_a_usage_error(corpus, capsys, tmp_path):
    empty = tmp_path / "none.yaml"
    empty.write_text("entries: []\n")
    assert verify.main(["--no-default-cases", f"--cases={corpus / 'cases'}", "-n", "0", "-o", str(tmp_path / "o"),
                        "--backend=skip_fakes:Hanging", f"--expectations={empty}", "--skipped"]) == 4
    assert "no item an expectations entry skips" in capsys.readouterr().err


def test_a_rejudged_skipped_record_stays_skipped(tmp_path):
    from conformance.rejudge import rejudger

    made = rejudger(lambda backends: Expectations([]))([replace(record("skipped"), reason="skipped: hangs (x)")])
    assert [r.status for r in made] == ["skipped"]
