"""ISA levels, expectations entries with ``isa:`` conditions, their update and judging results again (docs/isa.md)."""

from __future__ import annotations

import gzip
import json
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from conformance import machine
from conformance.cli.expectations import update
from conformance.cli.report import main as report_main
from conformance.expectations import Entry, Expectations, ExpectationsError, load_file
from conformance.expectations.outcome import outcome_of
from conformance.records import ResultRecord, read_records
from conformance.rejudge import rejudger

# the three x86-64 classes runs were seen on: flags as /proc/cpuinfo and lscpu print them
AVX2 = "fpu sse sse2 ssse3 fma sse4_1 sse4_2 avx f16c avx2 bmi2"
AVX512_BF16 = AVX2 + " avx512f avx512dq avx512cd avx512bw avx512vl avx512_vnni avx512_bf16"
AVX512_AMX = AVX512_BF16 + " avx_vnni avx512_fp16 amx_bf16 amx_tile amx_int8"


@pytest.mark.parametrize("flags, level", [(AVX2, "avx2"), (AVX512_BF16, "avx512_core_bf16"),
                                          (AVX512_AMX, "avx512_core_amx"), ("sse sse2", ""),
                                          (AVX2.replace(" fma", ""), "avx"),  # oneDNN's avx2 needs FMA too
                                          (AVX512_BF16.replace(" avx512vl", ""), "avx2")])
def test_level_of_cpu_flags(flags, level):
    assert machine.level_of(set(flags.split())) == level


def test_machine_from_lscpu_text():
    found = machine.from_text(f"Model name:   AMD EPYC\nFlags:  {AVX512_BF16}\n")
    assert (found.cpu, found.isa) == ("AMD EPYC", "avx512_core_bf16")
    assert "avx512_bf16" in found.features and "fpu" not in found.features  # only kernel-deciding features


@pytest.mark.parametrize("condition, level, holds", [
    (">=avx512_core", "avx512_core_bf16", True), (">=avx512_core", "avx2", False),
    ("<avx512_core_bf16", "avx2", True), ("<avx512_core_bf16", "avx512_core_bf16", False),
    (">=avx2,<avx512_core", "avx2_vnni", True), (">=avx2,<avx512_core", "avx512_core", False),
    ("avx2", "avx2", True), (["avx2", "avx512_core_amx"], "avx512_core_amx", True),
    (["avx2", "avx512_core_amx"], "avx512_core_bf16", False),
    (">=avx2", "", False),  # a record without a level satisfies no condition
    ("", "", True),  # no condition: every record
])
def test_condition_holds(condition, level, holds):
    assert machine.holds(condition, level) is holds


@pytest.mark.parametrize("bad", [">=avx513", "=>avx2", ">= avx2 <avx512_core", [], [3], "", " "])
def test_bad_condition_is_refused(bad):
    with pytest.raises(machine.LevelError):
        machine.check_condition(bad)


@pytest.mark.parametrize("failing, passing, condition", [
    ({"avx512_core_bf16"}, {"avx2"}, ">=avx512_core_bf16"),
    ({"avx2"}, {"avx512_core_bf16", "avx512_core_amx"}, "<avx512_core_bf16"),
    ({"avx2", "avx512_core_amx"}, {"avx512_core_bf16"}, ["avx2", "avx512_core_amx"]),
    ({"avx2", "avx512_core_bf16"}, set(), ""),  # seen everywhere it ran: no condition
])
def test_condition_that_separates_levels(failing, passing, condition):
    assert machine.condition_for(failing, passing) == condition


def test_isa_axis_values():
    assert machine.expand_axis(["avx2,native"], "avx512_core_bf16") == ["avx2", "avx512_core_bf16"]
    assert machine.expand_axis(["all"], "avx512_core_amx") == ["avx2", "avx512_core", "avx512_core_bf16",
                                                                "avx512_core_fp16", "avx512_core_amx"]
    assert machine.expand_axis(["native", "avx2"], "avx2") == ["avx2"]
    with pytest.raises(machine.LevelError, match="unknown ISA level 'avx3'"):
        machine.expand_axis(["avx3"], "avx2")


ITEM = "onednn/MaxPool-1/same_ceil::onednn[bfloat16-NCX]"


def record(status: str, isa: str, backend: str = "onednn", **extra) -> ResultRecord:
    return ResultRecord(id="onednn/MaxPool-1/same_ceil[bfloat16-NCX]", op="MaxPool", domain="onednn", version=1,
                        dtype="bfloat16", backend=backend, backend_version="3.2.0", status=status, isa=isa, **extra)


def book(tmp_path: Path, isa_line: str) -> Expectations:
    path = tmp_path / "e.yaml"
    path.write_text(f"entries:\n- id: {ITEM}\n  reason: extra row\n  status: fail\n{isa_line}")
    return Expectations.load([path])


def test_entry_applies_only_at_its_levels(tmp_path):
    expectations = book(tmp_path, "  isa: '>=avx512_core'\n")
    assert expectations.apply(record("fail", "avx512_core_bf16")).status == "xfail"
    assert expectations.apply(record("fail", "avx2")).status == "fail"  # not where the entry does not apply
    assert expectations.apply(record("fail", "")).status == "fail"  # a record without a level
    # an ISA column answers to its backend's entries, at its own level
    assert expectations.apply(record("fail", "avx512_core", backend="onednn@avx512_core")).status == "xfail"
    assert expectations.apply(record("pass", "avx2", backend="onednn@avx2")).status == "pass"
    xpass = expectations.apply(record("pass", "avx512_core_amx"))
    assert (xpass.status, xpass.outcome) == ("xpass", "pass")  # the status before expectations is kept


def test_entry_for_another_level_is_not_stale(tmp_path):
    expectations = book(tmp_path, "  isa: '>=avx512_core_fp16'\n")
    ran = [record("unsupported", "avx2")]
    assert expectations.stale([r.expectation_id for r in ran]) == []  # it matches the item, at other machines
    assert [e.key for e in expectations.stale(["other::onednn[float32]"])] == [ITEM]


@pytest.mark.parametrize("line, message", [("  isa: '>=avx3'\n", "unknown ISA level 'avx3'"),
                                           ("  isa: 7\n", "isa must be a string or a list of levels"),
                                           ("  isa: []\n", "one or more level names"),
                                           ("  isa: ''\n", "an empty isa condition")])
def test_malformed_isa_names_file_and_line(tmp_path, line, message):
    with pytest.raises(ExpectationsError, match=rf"e\.yaml:2: entry 1: .*{message}"):
        book(tmp_path, line)


def test_update_writes_the_isa_condition_that_separates_the_levels():
    records = [record("fail", "avx512_core_bf16"), record("unsupported", "avx2", backend="onednn@avx2"),
               record("pass", "avx2", backend="onednn@avx2")]
    records[2] = replace(records[2], id=records[2].id.replace("same_ceil", "other"))
    kept, added, _ = update([], records, backend="onednn")
    assert added == [ITEM]
    assert (kept[0].status, kept[0].isa) == ("fail", ">=avx512_core_bf16")
    # seen at every level that ran: no condition
    kept, _, _ = update([], [record("fail", "avx512_core_bf16"), record("fail", "avx2", backend="onednn@avx2")],
                        backend=None)
    assert kept[0].isa == ""


def test_update_keeps_an_entry_for_levels_this_run_did_not_have():
    entry = Entry(reason="bf16 extra row", id=ITEM, status="fail", isa=">=avx512_core")
    kept, _, dropped = update([entry], [record("unsupported", "avx2")], backend=None)
    assert kept == [entry] and dropped == []
    kept, _, dropped = update([entry], [record("xpass", "avx512_core_bf16")], backend=None)
    assert kept == [] and dropped == [ITEM]


def test_written_isa_condition_loads_back(tmp_path):
    from conformance.expectations import write_file

    path = tmp_path / "w.yaml"
    write_file(path, [Entry(reason="r", id=ITEM, isa=">=avx512_core"), Entry(reason="r", id=ITEM, isa=["avx2"])])
    assert [e.isa for e in load_file(path)] == [">=avx512_core", ["avx2"]]


@pytest.mark.parametrize("status, reason, outcome", [
    ("xfail", "expected failure: note\nrejected: RuntimeError: no", "error"),
    ("xfail", "expected failure: note (link)\nworker died: signal SIGABRT (-6)", "crash"),
    ("xfail", "expected failure: note\nno result within 60 s", "timeout"),
    ("xfail", "expected failure: note\nY: 1 of 2 elements outside tolerance", "fail"),
    ("xpass", "unexpected pass: the expectation no longer holds, remove it: note", "pass"),
    ("error", "expected fail, got error: note\nrejected: RuntimeError: no", "error"),
])
def test_outcome_of_records_from_older_runs(status, reason, outcome):
    old = record(status, "", reason=reason, expectation="note")
    found, original = outcome_of(old)
    assert found == outcome
    assert not original.startswith(("expected", "unexpected"))


def test_rejudge_applies_todays_expectations_at_the_machines_level(tmp_path):
    expectations = book(tmp_path, "  isa: '>=avx512_core'\n")
    host = machine.from_text(f"flags: {AVX512_BF16}")
    legacy = [record("fail", ""), record("pass", "", backend="reference")]
    legacy[1] = replace(legacy[1], id=legacy[1].id.replace("same_ceil", "other"))
    judged = rejudger(lambda backends: expectations, host, lambda b: b == "reference")(legacy)
    assert [(r.status, r.isa) for r in judged] == [("xfail", "avx512_core_bf16"), ("pass", "")]
    assert [(r.status, r.isa) for r in legacy] == [("fail", ""), ("pass", "")]  # new records: those read as read


def test_report_rejudges_another_machines_trimmed_results(tmp_path, capsys):
    """The form results from other machines are kept in (trimmed, gzipped, no level): judged again, red to green."""
    trimmed = {"nodeid": "x", "id": "onednn/MaxPool-1/same_ceil[bfloat16-NCX]", "backend": "onednn",
               "backend_version": "3.2.0", "status": "fail", "reason": "dst: shape mismatch", "expectation": ""}
    results = tmp_path / "results.jsonl.gz"
    with gzip.open(results, "wt", encoding="utf-8") as out:
        out.write(json.dumps(trimmed) + "\n")
    (tmp_path / "cpu.txt").write_text(f"Model name: Some CPU\nFlags: {AVX512_BF16}\n")
    (tmp_path / "e.yaml").write_text(textwrap.dedent(f"""\
        entries:
        - id: {ITEM}
          reason: extra row
          isa: '>=avx512_core'
        """))
    common = [str(results), "-o", str(tmp_path / "out"), "--rejudge", "--no-default-expectations",
              "--expectations", str(tmp_path / "e.yaml")]
    assert report_main(common) == 1  # no level known: the entry cannot apply
    assert report_main([*common, "--machine", str(tmp_path / "cpu.txt")]) == 0
    (kept,) = read_records(tmp_path / "out" / "results.jsonl")
    assert (kept.status, kept.isa, kept.layout) == ("xfail", "avx512_core_bf16", "NCX")
    (tmp_path / "flat.txt").write_text("no flags here")
    assert report_main([*common, "--machine", str(tmp_path / "flat.txt")]) == 2
    assert "no x86-64 CPU flags" in capsys.readouterr().err
