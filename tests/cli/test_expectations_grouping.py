"""Issue 35: expectations that pin how their items fail (signature) and `expectations update` grouping new
failures by cause (one `match:` entry per group). A small fake runtime, "acme", returns the reference's outputs
rounded through float16 (the harness's own test of itself: no real runtime is stood in for)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.cli import expectations as cli
from conformance.expectations import Expectations, load_file, write_file
from conformance.expectations import signature as signatures
from conformance.pipeline.runner import result
from conformance.records import write_records
from conformance.report.baseline import compare
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

AVERAGE = """op: AveragePool
domain: ai.onnx
versions: [11, 22]
cases:
  - id: avg
    attributes: {kernel_shape: [3, 3], pads: [1, 1, 1, 1]}
    dtypes: [float32, float16]
    inputs: {x: {shape: [1, 2, 6, 6], random: {seed: 11, low: -2, high: 2}}}
  - id: avg_ints
    attributes: {kernel_shape: [2, 2], strides: [2, 2]}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 4, 4], arange: {start: 1}}}
"""
MAX = """op: MaxPool
domain: ai.onnx
versions: [12]
cases:
  - id: max
    attributes: {kernel_shape: [2, 2]}
    dtypes: [float32, float16]
    inputs: {x: {shape: [1, 2, 5, 5], random: {seed: 12}}}
    outputs: {y: {}}
  - id: max_indices
    attributes: {kernel_shape: [3, 3]}
    dtypes: [float32, float16]
    inputs: {x: {shape: [1, 2, 5, 5], random: {seed: 13}}}
    outputs: {y: {}, indices: {dtype: int64}}
"""
INSTANCES = [i for text in (AVERAGE, MAX) for case in load_text(text, "acme.yaml").cases for i in expand(case)]


class Acme(Backend):
    """Every float output rounded through float16; ``regression`` breaks it further on chosen cases."""

    name = "acme"

    def __init__(self, regression: str = ""):
        self.regression = regression

    def run(self, case, inputs):
        outs = reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs
        wanted = case.case.outputs and len(case.case.outputs) or 1
        outs = list(outs)[:wanted]
        done = []
        for out in outs:
            if out.dtype.kind == "f":
                rounded = out.astype(np.float16).astype(out.dtype)
                if self.regression == "100x" and case.op == "AveragePool":
                    rounded = (out + (rounded.astype(np.float64) - out) * 1000).astype(out.dtype)
                out = rounded
            elif self.regression == "indices":  # 1-based indices
                out = out + 1
            done.append(out)
        return done


def run(backend: Acme, book: Expectations | None = None) -> list:
    return [result(instance, backend, book) for instance in INSTANCES]


@pytest.fixture(scope="module")
def baseline_records():
    return run(Acme())


@pytest.fixture
def seeded(tmp_path: Path, baseline_records) -> Path:
    write_records(tmp_path / "r.jsonl", baseline_records)
    path = tmp_path / "acme.yaml"
    assert cli.main(["update", str(path), "--results", str(tmp_path / "r.jsonl"), "--backend", "acme"]) == 0
    return path


def test_the_fake_fails_on_float32_values_only(baseline_records):
    failing = {r.id for r in baseline_records if r.status != "pass"}
    assert failing and all("float32" in i for i in failing)
    assert {r.status for r in baseline_records if r.id in failing} == {"fail"}
    assert any(r.status == "pass" and "float32" in r.id for r in baseline_records)  # integers round exactly


def test_update_groups_by_cause_and_never_covers_a_passing_item(seeded: Path, baseline_records):
    entries = load_file(seeded)
    failing = [r for r in baseline_records if r.status == "fail"]
    assert len(entries) < len(failing) and len(entries) <= 3, [e.to_yaml() for e in entries]
    assert any(e.match is not None for e in entries)
    for entry in entries:
        # a reason for a person to write (issue 48): the records' words after TODO, which a strict gate refuses
        assert entry.signature and entry.reason.startswith("TODO: ") and entry.status == "fail"
    book = Expectations(entries)
    for record in baseline_records:
        covered = book.find(record.expectation_id, record.backend_version, record.isa, record)
        assert (covered is not None) == (record.status == "fail"), record.id
    # applied, the seeded file turns the run green: every failure xfail, every pass a pass
    assert {r.status for r in run(Acme(), Expectations.load([seeded]))} == {"pass", "xfail"}


@pytest.mark.parametrize("regression, changed", [("indices", "max_indices"), ("100x", "AveragePool")])
def test_a_failure_that_changes_is_reported_in_the_run_and_against_the_baseline(seeded: Path, regression, changed):
    before = run(Acme(), Expectations.load([seeded]))
    after = run(Acme(regression), Expectations.load([seeded]))
    known = {r.id for r in before if r.status == "xfail"}
    broken = [r for r in after if changed in r.id and r.id in known]
    assert broken and all(r.status == "fail" and r.reason.startswith("changed failure: ") for r in broken)
    assert all(r.status == "xfail" for r in after if r.id in known and r not in broken)
    diff = compare(after, before)
    assert {r.id for r in broken} <= {t.id for t in diff.regressions} and diff.exit_code == 1


def test_an_old_entry_without_signature_still_xfails_and_the_baseline_sees_the_change(seeded: Path, tmp_path):
    unsigned = tmp_path / "old.yaml"
    write_file(unsigned, [dataclasses.replace(e, signature="", pins={}) for e in load_file(seeded)])
    assert not any(e.signature or e.pins for e in load_file(unsigned))
    before = run(Acme(), Expectations.load([unsigned]))
    after = run(Acme("indices"), Expectations.load([unsigned]))
    known = {r.id for r in before if r.status == "xfail"}
    broken = [r for r in after if "max_indices" in r.id and r.id in known]
    assert broken and {r.status for r in broken} == {"xfail"}  # as before issue 35
    diff = compare(after, before)
    assert {t.id for t in diff.changed_failures} == {r.id for r in broken}
    assert all(t in diff.regressions for t in diff.changed_failures) and diff.exit_code == 1
    assert all("indices: indices (new)" in t.reason for t in diff.changed_failures)


def test_update_adds_the_signature_to_an_old_entry(seeded: Path, tmp_path: Path, baseline_records):
    unsigned = tmp_path / "old.yaml"
    text = seeded.read_text().replace("signature:", "# signature:")
    unsigned.write_text(text)
    assert cli.main(["update", str(unsigned), "--results", str(tmp_path / "r.jsonl")]) == 0
    assert [e.signature for e in load_file(unsigned)] == [e.signature for e in load_file(seeded)]
    assert unsigned.read_text().startswith(text.split("\n", 1)[0])  # the rest of the file kept


def test_a_proposed_match_is_narrowed_when_it_would_cover_a_passing_item(tmp_path: Path, baseline_records):
    # avg_ints[float32] passes while every other float32 AveragePool fails the same way: dtype alone is too wide
    entries, added, _ = cli.update([], baseline_records, "acme")
    book = Expectations(entries)
    passing = [r for r in baseline_records if r.status == "pass"]
    assert passing and not any(book.find(r.expectation_id, "", "", r) for r in passing)


def test_a_match_part_that_matches_nothing_is_stale(tmp_path: Path, baseline_records):
    path = tmp_path / "e.yaml"
    path.write_text("entries:\n  - match: {backend: acme, op: [MaxPool, MaxPoool]}\n    reason: r\n"
                    "  - match: {backend: acme, dtype: float32}\n    reason: r\n")
    book = Expectations.load([path])
    stale = book.stale([r.expectation_id for r in baseline_records], baseline_records)
    assert [e.line for e in stale] == [2] and stale[0].unmatched == ["op=MaxPoool"]


@pytest.mark.parametrize("pinned, now, same", [
    ("y: values 1e2", "y: values 1e3", True),  # a bucket flip at a power of ten
    ("y: values 1e2", "y: values 1e4", False),  # 100x beyond
    ("y: values 1e2", "y: values 1e0", True),  # got better
    ("y: values 1e2; indices: indices", "y: values 1e2", True),
    ("y: values 1e2", "y: values 1e2; indices: indices", False),
    ("y: values 1e2", "y: values nonfinite", False),
    ("rejected InvalidArgument", "rejected RuntimeError", False),
    ("rejected InvalidArgument", "rejected InvalidArgument", True),
    ("y: shape", "y: dtype", False),
])
def test_what_counts_as_the_same_failure(pinned, now, same):
    assert (signatures.changes(signatures.parse(pinned), signatures.parse(now)) == []) is same


def test_the_report_shows_which_entry_applied_and_what_it_pins(seeded: Path, tmp_path: Path):
    """A match: entry has no id to find it by: the record (and the HTML drill-down, which shows this field) names
    its file and line, and the signature the item was judged against."""
    from conformance.report import build_reports

    entries = {e.line: e for e in load_file(seeded)}
    judged = [r for r in run(Acme(), Expectations.load([seeded])) if r.status == "xfail"]
    assert judged
    for record in judged:
        note, _, tail = record.expectation.rpartition(" [")
        where, _, pins = tail.rstrip("]").partition(", signature ")
        assert note and where.startswith("acme.yaml:")
        # the item's own pin (issue 47), not the group's largest
        assert pins.strip("'") == entries[int(where.split(":")[1])].signature_for(record.expectation_id)
    write_records(tmp_path / "judged.jsonl", judged)
    build_reports([tmp_path / "judged.jsonl"], tmp_path / "out")
    html = (tmp_path / "out" / "index.html").read_text()
    assert judged[0].expectation.split(" [")[-1] in html  # embedded for the drill-down's "expectation" row
