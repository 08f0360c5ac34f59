"""Issue 47: an item two entries match. The most specific entry wins (an ``id:`` over a ``glob:`` or ``match:``,
else the first in file order), and the entry it shadows is reported: a broad ``match:`` earlier in the file no
longer takes a later pinned ``id:`` entry's item (x1000, NaN and exceptions all ``xfail`` before), and an entry
shadowed for every item it matches is stale (docs/ci-gate.md, section 2)."""

from __future__ import annotations

from pathlib import Path

from conformance.expectations import Expectations
from conformance.plugin.gate import stale_lines
from conformance.records import ResultRecord

ITEM = "ai.onnx/Softmax-13/a::acme[float32]"


def record(case: str, ratio: float, op: str = "Softmax") -> ResultRecord:
    return ResultRecord(
        id=f"ai.onnx/{op}-13/{case}[float32]", op=op, domain="ai.onnx", version=13, dtype="float32",
        backend="acme", backend_version="1.0", status="fail", outcome="fail",
        reason="y: 1 of 10 elements outside tolerance", mismatches=1, elements=10,
        worst=[{"index": [0], "expected": 1.0, "actual": 1.0, "abs_err": ratio * 1e-6, "allowed": 1e-6}])


def book(tmp_path: Path, text: str) -> Expectations:
    path = tmp_path / "acme.yaml"
    path.write_text("entries:\n" + text)
    return Expectations.load([path])


BROAD_FIRST = """  - match: {backend: acme, op: Softmax}
    reason: broad
  - id: "ai.onnx/Softmax-13/a::acme[float32]"
    reason: pinned
    signature: "y: values 3.0e0 1/10"
"""


def test_a_later_pinned_id_entry_wins_over_an_earlier_broad_match(tmp_path: Path):
    expectations = book(tmp_path, BROAD_FIRST)
    assert expectations.find(ITEM, "1.0", "", record("a", 3.0)).reason == "pinned"
    assert expectations.apply(record("a", 3.0)).status == "xfail"
    grown = expectations.apply(record("a", 3000.0))  # x1000: the pin sees it (the broad entry took it before)
    assert grown.status == "fail" and grown.reason.startswith("changed failure: ")
    assert expectations.apply(record("b", 3000.0)).status == "xfail"  # the broad entry's own item


def test_the_shadowed_entry_is_reported_naming_both_lines(tmp_path: Path):
    expectations = book(tmp_path, BROAD_FIRST)
    records = [record("a", 3.0), record("b", 3.0)]
    lines = stale_lines(expectations, records, "", False)
    path = tmp_path / "acme.yaml"
    assert lines == [f"shadowed expectation: {path}:2: entry (match:{{\"backend\":\"acme\",\"op\":\"Softmax\"}}) "
                     f"is shadowed for 1 item(s) by the more specific {path}:4 ({ITEM}), e.g. {ITEM}"], lines


def test_an_entry_shadowed_for_every_item_is_stale(tmp_path: Path):
    expectations = book(tmp_path, BROAD_FIRST)
    lines = stale_lines(expectations, [record("a", 3.0)], "", False)
    path = tmp_path / "acme.yaml"
    assert lines == [f"stale expectation: {path}:2: entry (match:{{\"backend\":\"acme\",\"op\":\"Softmax\"}}) is "
                     f"shadowed for every item it matches by {path}:4 (an id: entry wins, then the first in file "
                     "order)"], lines


def test_among_patterns_the_first_in_file_order_wins_and_the_other_is_reported(tmp_path: Path):
    expectations = book(tmp_path, """  - glob: "ai.onnx/Softmax-13/*::acme[*]"
    reason: first
  - match: {backend: acme, case: a}
    reason: second
""")
    records = [record("a", 3.0), record("b", 3.0), record("a", 3.0, op="Relu")]
    assert [expectations.apply(r).expectation.split(" [")[0] for r in records] == ["first", "first", "second"]
    lines = stale_lines(expectations, records, "", False)
    (line,) = lines
    assert line.startswith(f"shadowed expectation: {tmp_path / 'acme.yaml'}:4: entry") and \
        f"by the earlier {tmp_path / 'acme.yaml'}:2 " in line, line
