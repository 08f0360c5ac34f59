"""``os:`` and ``arch:``: an expectations entry's conditions on the machine its items ran on, beside ``isa:`` and
``versions:``; one whose condition does not hold on this machine applies to nothing here and is never stale here
(issue 48, item 4)."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from off_by_bounds import ITEM, OffBy, instance

from conformance.cli import report as report_cli
from conformance.cli.expectations import update
from conformance.expectations import Expectations, ExpectationsError, load_file, write_file
from conformance.expectations.host import UNKNOWN, of_results
from conformance.machine import Machine, arch_name, os_name, this_machine
from conformance.pipeline.runner import result
from conformance.records import ResultRecord, read_records, split_item_id, write_records

LINUX = Machine(cpu="", arch="x86_64", os="linux")
MAC = Machine(cpu="", arch="aarch64", os="darwin")


def book(tmp_path: Path, condition: str, host: Machine | None = None) -> Expectations:
    path = tmp_path / "acme.yaml"
    path.write_text(f"entries:\n  - id: '{ITEM}'\n    reason: ACME-7 on one platform\n    {condition}\n",
                    encoding="utf-8")
    return Expectations(load_file(path), host=host)


def test_the_machines_names_are_normalised():
    assert [os_name(p) for p in ("linux", "linux2", "darwin", "win32", "cygwin")] == \
        ["linux", "linux", "darwin", "win32", "win32"]
    assert [arch_name(m) for m in ("x86_64", "AMD64", "arm64", "aarch64")] == ["x86_64", "x86_64", "aarch64", "aarch64"]
    here = this_machine()
    assert here.os == os_name() and here.arch == arch_name() and Machine.from_json(here.to_json()) == here


@pytest.mark.parametrize(("condition", "host", "status"), [
    ("os: linux", LINUX, "xfail"),
    ("os: [linux, darwin]", MAC, "xfail"),
    ("os: darwin", LINUX, "fail"),
    ("arch: x86_64", LINUX, "xfail"),
    ("arch: [aarch64]", LINUX, "fail"),
    ("arch: [aarch64]", MAC, "xfail"),
    ("os: linux", UNKNOWN, "fail"),  # a machine that cannot be told holds no condition
])
def test_an_entry_applies_where_its_condition_holds(tmp_path, condition, host, status):
    made = result(instance(), OffBy(3), book(tmp_path, condition, host))
    assert made.status == status and bool(made.expectation) == (status == "xfail")


def test_without_a_host_the_conditions_are_held_against_this_machine(tmp_path):
    here, there = this_machine().os, next(o for o in ("linux", "darwin") if o != this_machine().os)
    assert result(instance(), OffBy(3), book(tmp_path, f"os: {here}")).status == "xfail"
    assert result(instance(), OffBy(3), book(tmp_path, f"os: {there}")).status == "fail"


def test_a_tolerance_or_skip_entry_of_another_os_is_not_applied_before_the_run(tmp_path):
    path = tmp_path / "acme.yaml"
    path.write_text(f"entries:\n  - id: '{ITEM}'\n    reason: r\n    os: darwin\n    skip: hangs\n")
    assert result(instance(), OffBy(0.5), Expectations(load_file(path), host=LINUX)).status == "pass"
    assert result(instance(), OffBy(0.5), Expectations(load_file(path), host=MAC)).status == "skipped"


def record(status: str) -> ResultRecord:
    case_id, backend = split_item_id(ITEM)
    return ResultRecord(id=case_id, op="AveragePool", domain="ai.onnx", version=22, dtype="float32", backend=backend,
                        backend_version="1.0", status=status, outcome=status)


def test_an_entry_of_another_os_is_never_stale_here(tmp_path):
    other = replace(record("pass"), id=record("pass").id.replace("mixed_signs", "another"))  # not the entry's
    assert book(tmp_path, "os: darwin", LINUX).stale([other.expectation_id], [other]) == []
    (stale,) = book(tmp_path, "os: darwin", MAC).stale([other.expectation_id], [other])
    assert stale.os == "darwin"
    # holding for no item here, it is not "every item unsupported" or shadowed either
    assert book(tmp_path, "os: darwin", LINUX).stale([record("x").expectation_id], [record("unsupported")]) == []


@pytest.mark.parametrize(("text", "message"), [
    ("os: macos", r"unknown os 'macos' \(write darwin\)"),
    ("os: [linux, windows]", r"unknown os 'windows' \(write win32\)"),
    ("arch: arm64", r"unknown arch 'arm64' \(write aarch64\)"),
    ("arch: AMD64", r"unknown arch 'AMD64' \(write x86_64\)"),
    ("os: []", "os must be a name or a non-empty list"),
    ("arch: 64", "arch must be a name or a non-empty list"),
    ("os: ''", "os must be a name or a non-empty list"),
])
def test_a_malformed_condition_names_file_line_and_entry(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(f"entries:\n  - reason: r\n    id: '{ITEM}'\n    {text}\n", encoding="utf-8")
    with pytest.raises(ExpectationsError, match=f"{path}:2: entry 1: {message}"):
        load_file(path)


def test_to_yaml_round_trip(tmp_path):
    entries = book(tmp_path, "os: [linux, darwin]\n    arch: x86_64").entries
    assert entries[0].to_yaml() == {"id": ITEM, "reason": "ACME-7 on one platform", "os": ["linux", "darwin"],
                                    "arch": "x86_64"}
    again = tmp_path / "again.yaml"
    write_file(again, entries)
    assert [e.to_yaml() for e in load_file(again)] == [e.to_yaml() for e in entries]


def test_two_entries_for_one_id_may_differ_by_os_only(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(textwrap.dedent(f"""\
        entries:
          - {{id: '{ITEM}', reason: linux's, os: linux}}
          - {{id: '{ITEM}', reason: darwin's, os: darwin}}
        """))
    found = Expectations.load([path])
    found.host = MAC
    assert found.apply(record("fail")).expectation.startswith("darwin's")
    path.write_text(path.read_text().replace("os: darwin", "os: linux"))
    with pytest.raises(ExpectationsError, match="is shadowed by the one at .*os: or arch:"):
        Expectations.load([path])


def results(tmp_path: Path, machine: Machine, status: str = "fail") -> Path:
    path = tmp_path / f"{machine.os}.jsonl"
    write_records(path, [record(status)], meta={"machine": machine.to_json()})
    return path


def test_the_machine_of_results_is_the_one_their_meta_names(tmp_path):
    assert of_results([results(tmp_path, MAC)]) == Machine(cpu="", arch="aarch64", os="darwin")
    assert of_results([results(tmp_path, MAC), results(tmp_path, LINUX)]) is None  # machines that differ
    bare = tmp_path / "bare.jsonl"
    write_records(bare, [record("fail")])
    assert of_results([bare]) is None


def test_rejudging_holds_the_conditions_against_the_results_machine(tmp_path):
    lists = tmp_path / "acme.yaml"
    lists.write_text(f"entries:\n  - id: '{ITEM}'\n    reason: r\n    os: darwin\n")
    for machine, status in ((MAC, "xfail"), (LINUX, "fail")):
        out = tmp_path / f"out-{machine.os}"
        report_cli.main([str(results(tmp_path, machine)), "-o", str(out), "--rejudge", "--no-default-expectations",
                         "--expectations", str(lists)])
        assert [r.status for r in read_records(out / "results.jsonl")] == [status]


def test_update_keeps_an_entry_of_another_os_whose_items_pass_here(tmp_path):
    entries = book(tmp_path, "os: darwin").entries
    kept, added, dropped = update(entries, [record("pass")], None, host=LINUX)
    assert kept == entries and not dropped
    kept, added, dropped = update(entries, [record("pass")], None, host=MAC)  # fixed where it applies: dropped
    assert kept == [] and dropped == [ITEM]
