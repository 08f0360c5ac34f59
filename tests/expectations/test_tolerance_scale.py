"""``tolerance: {scale: N}``: an expectations entry widens its items' bound by a stated factor, applied when the
item is judged and said in every record, the report and the summary; never a silent pass (issue 48, item 4)."""

from __future__ import annotations

import json
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from off_by_bounds import CASE, ITEM, NAME, OffBy, instance

from conformance.cli.expectations import update
from conformance.expectations import Expectations, ExpectationsError, load_file, write_file
from conformance.pipeline.runner import result
from conformance.records import ResultRecord, read_records, split_item_id, write_records
from conformance.report import build_reports
from conformance.report.html import render_html


def book(tmp_path: Path, extra: str = "") -> Expectations:
    path = tmp_path / "acme.yaml"
    path.write_text(f"entries:\n  - id: '{ITEM}'\n    reason: ACME-7 sums in float16\n{extra}", encoding="utf-8")
    return Expectations(load_file(path))


def test_without_an_entry_the_item_fails_its_own_bound():
    made = result(instance(), OffBy(3), Expectations([]))
    assert made.status == "fail" and made.widened == {} and not made.tolerance.startswith("4*")


def test_scale_4_passes_an_item_three_bounds_off_and_says_so(tmp_path):
    made = result(instance(), OffBy(3), book(tmp_path, "    tolerance: {scale: 4}\n"))
    assert made.status == "pass", made.reason
    assert made.widened == {"scale": 4, "entry": "acme.yaml:2", "without": "fail"}
    assert made.tolerance.startswith("4*(")  # the bound's own text says the factor
    assert made.reason.startswith("passes only with the bound widened 4x by acme.yaml:2 (the op's own bound: ")
    assert made.expectation == "ACME-7 sums in float16 [acme.yaml:2, tolerance scale 4]"
    assert made.outcome == "pass"  # the status the runner gave: no xpass, no xfail


def test_scale_2_is_not_enough_for_an_item_three_bounds_off(tmp_path):
    made = result(instance(), OffBy(3), book(tmp_path, "    tolerance: {scale: 2}\n"))
    assert made.status == "fail"  # a widening entry expects no failure: not xfail
    assert made.reason.startswith("fails even with the bound widened 2x by acme.yaml:2: ")
    assert made.widened["without"] == "fail" and made.tolerance.startswith("2*(")


def test_a_widening_the_item_does_not_need_is_a_pass_that_says_so(tmp_path):
    made = result(instance(), OffBy(0.5), book(tmp_path, "    tolerance: {scale: 4}\n"))
    assert made.status == "pass" and made.widened["without"] == "pass"
    assert "passes within the op's own bound: the bound widened 4x by acme.yaml:2 is not needed" in made.reason


def test_the_backends_own_scale_and_the_entrys_multiply(tmp_path):
    class Loose(OffBy):
        tolerance_scale = 2.0

    made = result(instance(), Loose(6), book(tmp_path, "    tolerance: {scale: 4}\n"))  # 6 < 2*4, 6 > 2
    assert made.status == "pass" and made.tolerance.startswith("8*(") and made.widened["without"] == "fail"


def test_the_record_keeps_what_widened_it_through_its_file(tmp_path):
    made = result(instance(), OffBy(3), book(tmp_path, "    tolerance: {scale: 4}\n"))
    path = tmp_path / "r.jsonl"
    write_records(path, [made])
    (back,) = read_records(path)
    assert back.widened == made.widened and back == made
    data = json.loads(made.to_json())
    with pytest.raises(ValueError, match="widened"):
        data["widened"] = {"scale": "four", "entry": "x"}
        path.write_text(json.dumps(data) + "\n")
        list(read_records(path))


def record(status: str, widened: dict | None = None) -> ResultRecord:
    case_id, backend = split_item_id(ITEM)
    return ResultRecord(id=case_id, op="AveragePool", domain="ai.onnx", version=22, dtype="float32", backend=backend,
                        backend_version="1.0", status=status, widened=widened or {})


def test_applying_a_widening_entry_never_turns_a_status_into_another(tmp_path):
    expectations = book(tmp_path, "    tolerance: {scale: 4}\n")
    for status in ("pass", "fail", "error"):
        applied = expectations.apply(record(status))
        assert applied.status == status and "tolerance scale 4" in applied.expectation


@pytest.mark.parametrize(("text", "message"), [
    ("    tolerance: {scale: 0}\n", "finite number above 0"),
    ("    tolerance: {scale: -2}\n", "finite number above 0"),
    ("    tolerance: {scale: .inf}\n", "finite number above 0"),
    ("    tolerance: {scale: '4'}\n", "finite number above 0"),
    ("    tolerance: {scale: true}\n", "finite number above 0"),
    ("    tolerance: 4\n", r"tolerance must be \{scale: N\}"),
    ("    tolerance: {scale: 4, atol: 0.1}\n", r"tolerance must be \{scale: N\}"),
    ("    tolerance: {scale: 4}\n    status: fail\n", "takes no status"),
    ("    tolerance: {scale: 4}\n    signature: 'y: values 3.0e0 1/72'\n", "takes no signature"),
])
def test_a_malformed_tolerance_names_file_line_and_entry(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(f"entries:\n  - id: '{ITEM}'\n    reason: r\n{text}", encoding="utf-8")
    with pytest.raises(ExpectationsError, match=f"{path}:2: entry 1: .*{message}"):
        load_file(path)


def test_a_widening_entry_without_a_reason_is_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(f"entries:\n  - id: '{ITEM}'\n    tolerance: {{scale: 4}}\n", encoding="utf-8")
    with pytest.raises(ExpectationsError, match=f"{path}:2: entry 1: every entry needs a reason"):
        load_file(path)


def test_to_yaml_round_trip(tmp_path):
    given = tmp_path / "given.yaml"
    given.write_text(textwrap.dedent(f"""\
        entries:
          - match: {{backend: {NAME}, op: AveragePool}}
            reason: ACME-7
            tolerance: {{scale: 2.5}}
          - id: '{ITEM}'
            reason: ACME-8
            tolerance: {{scale: 4}}
        """), encoding="utf-8")
    entries = load_file(given)
    assert entries[0].to_yaml() == {"match": {"backend": NAME, "op": "AveragePool"}, "reason": "ACME-7",
                                    "tolerance": {"scale": 2.5}}
    again = tmp_path / "again.yaml"
    write_file(again, entries)
    assert [e.to_yaml() for e in load_file(again)] == [e.to_yaml() for e in entries]


def test_a_widening_entry_whose_items_pass_is_neither_stale_nor_dropped(tmp_path):
    expectations = book(tmp_path, "    tolerance: {scale: 4}\n")
    passed = expectations.apply(record("pass", {"scale": 4, "entry": "acme.yaml:2", "without": "fail"}))
    assert expectations.stale([passed.expectation_id], [passed]) == []
    kept, added, dropped = update(expectations.entries, [passed], None)
    assert kept == expectations.entries and not added and not dropped


def test_a_widening_entry_is_no_failure_another_backend_shares(tmp_path):
    """grouping.Elsewhere: a runtime whose list widens an item does not fail it the way ours does."""
    from conformance.expectations.grouping import Elsewhere

    other = Expectations([replace(e, id=ITEM.replace(NAME, "onnxruntime")) for e in
                          book(tmp_path, "    tolerance: {scale: 4}\n").entries])
    assert Elsewhere([record("fail")], {"onnxruntime": other}).of(record("fail")) == ()


def test_the_summary_and_the_html_report_count_widened_items(tmp_path):
    widened = {"scale": 4, "entry": "acme.yaml:2", "without": "fail"}
    records = [record("pass", widened), replace(record("fail", widened), id=record("x").id.replace("mixed", "other")),
               replace(record("pass"), id=record("x").id.replace("mixed", "plain"))]
    path = tmp_path / "r.jsonl"
    write_records(path, records)
    summary = build_reports([path], tmp_path / "out")
    assert ("widened bounds: 2 item(s) judged with a bound 1 expectations entry(ies) widened (tolerance: scale), "
            "1 passing only with it, 1 not passing even with it: acme.yaml:2 x4 (2)") in summary.text()
    page = render_html(records)
    assert '<section id="widened">' in page and "<td class=mono>acme.yaml:2</td><td>4x</td><td>2</td><td>1</td>" in page
    assert "widened bounds" not in render_html(records[2:])


FAKES = textwrap.dedent("""\
    import sys
    sys.path.insert(0, %r)
    from off_by_bounds import OffBy
""") % str(Path(__file__).resolve().parent)


@pytest.mark.parametrize(("scale", "status"), [(4, "pass"), (2, "fail")])
def test_a_run_judges_the_item_with_the_entrys_bound_and_says_so(pytester, scale, status):
    """Through the plugin: the runner finds the entry before judging, the summary counts the item."""
    pytester.makefile(".yaml", cases=CASE)
    pytester.makepyfile(fakes=FAKES)
    expectations = pytester.path / "acme.yaml"
    expectations.write_text(f"entries:\n  - id: '{ITEM}'\n    reason: ACME-7\n    tolerance: {{scale: {scale}}}\n")
    results = pytester.path / "r.jsonl"
    run = pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p", "no:randomly",
                                        "--cases=cases.yaml", "--backend=fakes:OffBy", "--isolation=none",
                                        "--no-reference", f"--expectations={expectations}", f"--results={results}")
    (made,) = read_records(results)
    assert made.status == status and made.widened["scale"] == scale, run.stdout.str()
    run.stdout.fnmatch_lines([f"widened bounds: 1 item(s) judged with a bound 1 expectations entry(ies) widened*"
                              f"acme.yaml:2 x{scale} (1)"])
    assert run.ret == (0 if status == "pass" else 1)
