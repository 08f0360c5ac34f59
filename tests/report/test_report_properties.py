from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from report_records import rec

from conformance.records import STATUSES
from conformance.report import build_reports
from conformance.report.baseline import COLUMN, compare
from conformance.report.merge import merge_records

record = st.builds(
    lambda case, backend, status, reason: rec("MaxPool", 22, case, "float32", backend, status, reason=reason),
    st.sampled_from(["a", "b", "c"]),
    st.sampled_from(["ov", "ort"]),
    st.sampled_from(STATUSES),
    st.sampled_from(["", "x", "y"]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(record, max_size=6), max_size=4), st.randoms())
def test_merge_is_order_independent(shards: list, rnd) -> None:
    named = [(f"s{i}", s) for i, s in enumerate(shards)]
    shuffled = named[:]
    rnd.shuffle(shuffled)
    a, b = merge_records(named), merge_records(shuffled)
    assert [r.to_json() for r in a.records] == [r.to_json() for r in b.records]
    assert len({(r.id, r.backend) for r in a.records}) == len(a.records)
    assert sorted(d.key for d in a.duplicates) == sorted(d.key for d in b.duplicates)


@settings(max_examples=60, deadline=None)
@given(st.lists(record, max_size=8), st.lists(record, max_size=8))
def test_every_key_is_classified_once(new: list, old: list) -> None:
    new_m, old_m = merge_records([("n", new)]).records, merge_records([("o", old)]).records
    diff = compare(new_m, old_m)
    moved = diff.regressions + diff.fixes + diff.changes + diff.new + diff.removed + diff.other_level
    moved = [t for t in moved if t.id != COLUMN]  # a column that ran nothing is a verdict on a column, not a key
    assert len(moved) + diff.unchanged == len({(r.id, r.backend) for r in new_m + old_m})
    assert compare(new_m, [dataclasses.replace(r) for r in new_m]).counts()["unchanged"] == len(new_m)


def test_empty_input(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("")
    summary = build_reports([tmp_path / "empty.jsonl"], tmp_path / "out")
    assert summary.total == 0 and summary.exit_code == 0
    assert 'id="results"' in summary.html.read_text()
