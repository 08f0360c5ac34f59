"""`conformance expectations update` on a file that wraps another runtime's list (``wraps:``): it proposes entries
only for the failures no entry, the file's own or a wrapped one, holds; it lists under ``wraps: except:`` the items
the wrapped list expects to fail that the backend passes; it takes the file's ``backend:`` as ``--backend``; it never
writes a wrapped entry into the file; and a second run over the same results changes nothing."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from shipped_stand_in import stand_in

from conformance.cli.expectations import main
from conformance.expectations import Expectations
from conformance.expectations.files import read_file
from conformance.records import ResultRecord, split_item_id, write_records

WRAPPED = textwrap.dedent("""\
    entries:
    - id: ai.onnx/AveragePool-19/upstream::onnxruntime[float32]
      reason: onnxruntime's own bug
      status: error
    - match: {backend: onnxruntime, op: MaxPool, case: [inf_pads, inf_values]}
      reason: returns lowest() where the spec wants -inf
      status: fail
    """)
HEADER = "# Acme's known divergences\nbackend: acme   # its entries\nwraps: onnxruntime  # the runtime it wraps\n" \
         "\nentries: []\n"


@pytest.fixture()
def wrapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return stand_in(tmp_path, monkeypatch, WRAPPED)


def record(item: str, status: str, op: str = "AveragePool") -> ResultRecord:
    instance, backend = split_item_id(item)
    return ResultRecord(id=instance, op=op, domain="ai.onnx", version=int(instance.split("/")[1].rsplit("-")[1]),
                        dtype="float32", backend=backend, backend_version="1.0", status=status,
                        reason="" if status == "pass" else "rejected: Fail: window out of range")


RUN = [
    record("ai.onnx/AveragePool-19/upstream::acme[float32]", "error"),     # onnxruntime's: the wrapped id holds it
    record("ai.onnx/MaxPool-12/inf_values::acme[float32]", "fail", "MaxPool"),  # onnxruntime's: the wrapped match
    record("ai.onnx/MaxPool-12/inf_pads::acme[float32]", "pass", "MaxPool"),    # onnxruntime's, but Acme passes it
    record("ai.onnx/AveragePool-22/own_bug::acme[float32]", "error"),       # Acme's own: no entry holds it
    record("ai.onnx/AveragePool-22/fine::acme[float32]", "pass"),
    record("ai.onnx/AveragePool-22/own_bug::onnxruntime[float32]", "error"),  # another column: not the file's backend
]


def update(tmp_path: Path, capsys: pytest.CaptureFixture) -> tuple[int, str]:
    results = tmp_path / "results.jsonl"
    write_records(results, RUN)
    code = main(["update", str(tmp_path / "acme.yaml"), "--results", str(results)])
    return code, capsys.readouterr().out


def test_update_proposes_only_what_no_entry_holds_and_lists_what_the_backend_does_not_share(
        tmp_path: Path, wrapped: Path, capsys: pytest.CaptureFixture):
    path = tmp_path / "acme.yaml"
    path.write_text(HEADER)
    code, out = update(tmp_path, capsys)
    assert code == 0, out
    read = read_file(path)
    # one entry, Acme's own bug; none for onnxruntime's (wraps: holds them), none for the onnxruntime column
    assert [e.key for e in read.entries] == ["ai.onnx/AveragePool-22/own_bug::acme[float32]"], path.read_text()
    assert read.entries[0].reason.startswith("TODO") and read.entries[0].signature == "rejected Fail"
    # the item onnxruntime's match expects to fail and Acme passes: under wraps: except:, the header kept
    assert read.wraps is not None and read.wraps.exceptions == ("ai.onnx/MaxPool-12/inf_pads::acme[float32]",)
    text = path.read_text()
    assert text.startswith("# Acme's known divergences\nbackend: acme   # its entries\n"
                           "wraps:  # the runtime it wraps\n  backend: onnxruntime\n")
    assert "\n\nentries:" in text and "onnxruntime's own bug" not in text  # no wrapped entry written
    assert "1 added, 0 dropped (fixed), 1 entries; wraps: at acme.yaml:3 takes on 2 of onnxruntime.yaml" in out
    assert "~ wraps: except: ai.onnx/MaxPool-12/inf_pads::acme[float32] (passes; onnxruntime.yaml:5, wrapped by " \
           "acme.yaml:3 expects a failure)" in out
    # with the file, every record of the run is acceptable once Acme's own entry is there
    book = Expectations.load([path])
    statuses = {book.apply(r).status for r in RUN if r.backend == "acme"}
    assert statuses == {"xfail", "pass"}, statuses


def test_a_second_update_over_the_same_results_changes_nothing(tmp_path: Path, wrapped: Path,
                                                              capsys: pytest.CaptureFixture):
    path = tmp_path / "acme.yaml"
    path.write_text(HEADER)
    assert update(tmp_path, capsys)[0] == 0
    before = path.read_text()
    code, out = update(tmp_path, capsys)
    assert code == 0 and path.read_text() == before and "0 added, 0 dropped (fixed), 1 entries" in out
    assert "~ wraps: except:" not in out


def test_without_wraps_the_wrapped_failures_would_be_proposed(tmp_path: Path, wrapped: Path,
                                                              capsys: pytest.CaptureFixture):
    """The same run against a file without ``wraps:``: onnxruntime's two failures become entries too (what a vendor
    copied by hand before), so the test above shows the key's effect."""
    path = tmp_path / "acme.yaml"
    path.write_text("entries: []\n")
    results = tmp_path / "results.jsonl"
    write_records(results, RUN)
    assert main(["update", str(path), "--results", str(results), "--backend", "acme"]) == 0
    keys = {e.key for e in read_file(path).entries}
    assert "ai.onnx/AveragePool-19/upstream::acme[float32]" in keys and len(keys) >= 2, keys


def test_a_proposal_may_cover_items_not_run_and_items_another_entry_holds(tmp_path: Path):
    """One cause across versions stays one entry when the only items its case names also cover elsewhere are ones
    the backend did not run (``unsupported``) or that an entry already holds (here failing another way): the
    proposal changes nothing for them, so they need not split it by version."""
    from conformance.cli.expectations import update as propose
    from conformance.expectations import Entry

    def maxpool(item: str, status: str, reason: str = "y: 3 of 9 elements outside tolerance") -> ResultRecord:
        instance, backend = split_item_id(item)
        return ResultRecord(id=instance, op="MaxPool", domain="ai.onnx", version=int(instance.split("/")[1][8:]),
                            dtype="float32", backend=backend, backend_version="1.0", status=status,
                            reason="" if status in ("pass", "unsupported") else reason)

    run = [maxpool("ai.onnx/MaxPool-1/x::acme[float32]", "fail"),
           maxpool("ai.onnx/MaxPool-12/x::acme[float32]", "fail"),
           maxpool("ai.onnx/MaxPool-12/y::acme[float32]", "fail"),
           maxpool("ai.onnx/MaxPool-1/z::acme[float32]", "pass"),
           maxpool("ai.onnx/MaxPool-1/y::acme[float32]", "unsupported"),
           maxpool("ai.onnx/MaxPool-22/x::acme[float32]", "error", "rejected: Fail: no")]
    held = Entry(reason="rejected at 22 (ACME-2)", id="ai.onnx/MaxPool-22/x::acme[float32]", status="error")
    kept, added, _ = propose([held], run, "acme")
    assert len(added) == 1, added
    (entry,) = [e for e in kept if e.key in added]
    assert entry.match is not None and sorted(entry.match["case"]) == ["x", "y"] and "version" not in entry.match


def test_a_proposal_never_takes_an_item_from_a_wrapped_match_it_would_come_before(tmp_path: Path):
    """A wrapped ``match:`` entry follows the file's own, where a proposal goes: covering its item would take it
    from onnxruntime's entry, so the proposal steps around it."""
    from conformance.cli.expectations import update as propose
    from conformance.expectations import Entry

    def maxpool(item: str, reason: str) -> ResultRecord:
        instance, backend = split_item_id(item)
        return ResultRecord(id=instance, op="MaxPool", domain="ai.onnx", version=int(instance.split("/")[1][8:]),
                            dtype="float32", backend=backend, backend_version="1.0", status="fail", reason=reason)

    run = [maxpool("ai.onnx/MaxPool-1/x::acme[float32]", "y: 3 of 9 elements outside tolerance"),
           maxpool("ai.onnx/MaxPool-12/x::acme[float32]", "y: 3 of 9 elements outside tolerance"),
           maxpool("ai.onnx/MaxPool-22/x::acme[float32]", "expected 1 output(s), got 2")]
    theirs = Entry(reason="onnxruntime's", match={"backend": "acme", "version": 22}, wrapped_by="acme.yaml:3")
    kept, added, _ = propose([], run, "acme", wrapped=[theirs])
    covered = Expectations(kept + [theirs])
    assert covered.find("ai.onnx/MaxPool-22/x::acme[float32]", "1.0", "", run[2]) is theirs, added
    assert all(covered.find(r.expectation_id, "1.0", "", r) is not theirs for r in run[:2])
